/**
 * conversation-memory: an immutable, reducer-style conversation memory for LLM agents and chat
 * UIs. Every export is listed here by hand; nothing else is public. Helpers for authors of custom
 * stores are at `conversation-memory/store-kit`, the offline `LocalProvider` at
 * `conversation-memory/testing`, server-sent events at `conversation-memory/sse` and the Node-only
 * stores at `conversation-memory/node`. The implementation lives in `./library`, which every
 * browser-safe entry re-exports, so all entries share one copy of each module (one tokenizer
 * registry, one class per error).
 *
 * @packageDocumentation
 * @module conversation-memory
 */

// Model
export { isRole } from '../model/role';
export { DEFAULT_CONFIG } from '../internal/defaultConfig';
export { PROVIDER_SAFE } from '../model/providerSafe';
export {
  userMessage,
  assistantMessage,
  systemMessage,
  toolMessage,
} from '../messages/constructors';
export { imageMessage } from '../messages/imageMessage';
// Reducers
export { createMemory } from '../core/createMemory';
export { addMessage } from '../core/addMessage';
export { addMessages } from '../core/addMessages';
export { enforceLimits } from '../core/enforceLimits';
export { reconfigure } from '../core/reconfigure';
export { fixToolPairBoundary } from '../core/fixToolPairBoundary';
export { applySummary } from '../core/applySummary';
export { setSummary } from '../core/setSummary';
export { clearMemory } from '../core/clearMemory';
export { holdForSummary } from '../core/holdForSummary';
export { commitSummary } from '../core/commitSummary';
export { planTrim } from '../core/planTrim';
export { memoryTransition, memoryReducer } from '../core/memoryTransition';
// Actions, event logs, envelopes
export { memoryActions } from '../actions/memoryActions';
export { decodeAction } from '../codec/decodeAction';
export {
  createEventLog,
  appendAction,
  replay,
  seek,
  fork,
  timeline,
  logActions,
} from '../log/eventLog';
export { encodeEnvelope, decodeEnvelope } from '../codec/envelope';
// Selectors
export {
  getHistory,
  getRecent,
  getSummary,
  getTotalTokens,
  getPositions,
  getPendingSummary,
} from '../core/selectors';
export { usageOf } from '../core/usageOf';
// Serialization and decoding
export { toDict, messageToDict } from '../serialization/toDict';
export { fromDict, fromDictWithEffects } from '../codec/fromDict';
export { decodeConfig } from '../codec/decodeConfig';
export { decodeState } from '../codec/decodeState';
// Object API
export { ConversationMemory } from '../facade/ConversationMemory';
// The model view: what the next provider call receives
export { modelView } from '../view/modelView';
export { interruptedToolResult } from '../view/interruptedToolResult';
// Provider formats
export { validateTranscript } from '../formats/validateTranscript';
export { toAnthropic } from '../formats/anthropic';
export { imageMediaType } from '../formats/imageMediaType';
export { fromAnthropic } from '../codec/anthropic';
export { fromAnthropicReply } from '../codec/anthropicReply';
export { toOpenAIChat } from '../formats/openaiChat';
export { fromOpenAIChat } from '../codec/openaiChat';
export { fromOpenAIChatCompletion } from '../codec/openaiChatCompletion';
// Agent
export { createAgent } from '../agent/createAgent';
// Errors
export {
  MemoryConfigError,
  MemoryArgumentError,
  MemoryDecodeError,
  InvalidMessageError,
  TokenizerError,
  ListenerError,
} from '../errors/memoryErrors';
export { AgentConfigError, ProviderResponseError } from '../errors/agentErrors';
export { isConversationMemoryError } from '../errors/errorBrand';
export { SessionConflictError, SessionCorruptError, SessionIdError } from '../errors/sessionErrors';
export { StoreUnavailableError } from '../errors/storeErrors';
// Sessions (browser-safe; the file, SQLite and Redis stores are at conversation-memory/node)
export { InMemorySessionStore } from '../stores/session/InMemorySessionStore';
// Event store: append-only action streams (SqliteEventStore and RedisEventStore are at conversation-memory/node)
export { EventConflictError, EventCorruptError, EventPrunedError } from '../errors/eventErrors';
export { InMemoryEventStore } from '../stores/event/InMemoryEventStore';
// A memory that reports each change as its action (what the agent appends to an event store), and
// moving a stream to and from an event log (timeline, seek, fork and the inspector work on it).
export { RecordedMemory } from '../facade/RecordedMemory';
export { exportEventLog, importEventLog } from '../stores/event/eventLogTransfer';

export type { SessionStore } from '../stores/session/types';
// The contract SessionStore shares with KnowledgeStore (conversation-memory/knowledge)
export type {
  RevisionedStore,
  RevisionedRecordOptions,
  RevisionedSaveOptions,
  LoadedRevision,
  SavedRevision,
} from '../stores/kit/revisionedStore';
export type { StoreUnavailableOptions } from '../errors/storeErrors';
export type {
  SessionOptions,
  SaveOptions,
  SavedSession,
  LoadedSession,
  SessionAddress,
  SessionMetadata,
  SessionSearchResult,
  SearchOptions,
  SessionStoreOptions,
} from '../stores/session/types';
export type { Role } from '../model/role';
export type { Message, ToolCall, ContentPart, JsonValue, JsonObject } from '../model/message';
export type { MessageInput, ToolCallInput, ContentPartInput } from '../model/messageInput';
export type { ToolResultOrigin } from '../messages/constructors';
export type { Base64Image } from '../messages/imageMessage';
export type {
  MemoryConfig,
  MemoryOptions,
  TokenizerName,
  ToolPairPolicy,
  PrunePolicy,
  EmbedderName,
} from '../model/config';
export type { MemoryState, PositionRun } from '../model/state';
export type { ConversationUsage } from '../model/conversationUsage';
export type { MemoryAction, MemoryActionType } from '../model/actions';
export type { HeldTrim } from '../core/holdForSummary';
export type { ActionCreator } from '../actions/memoryActions';
export type { EventLog, EventLogOptions, TimelineStep } from '../log/eventLog';
export type { LogVector } from '../log/logVector';
export type { Envelope, DecodedEnvelope } from '../codec/envelope';
export type { SummaryCoverage } from '../model/summaryCoverage';
export type { TrimPlan } from '../core/planTrim';
export type {
  Transition,
  MemoryEffect,
  TrimmedEffect,
  SummaryChangedEffect,
  PendingDiscardedEffect,
  HeldForSummaryEffect,
  ReconfiguredEffect,
  TrimBreakdown,
  TrimRule,
} from '../model/effects';
export type { MessageTokenCounter } from '../tokens/registry';
export type { EncodingName } from '../tokens/encodings';
export type { FromDictOptions } from '../codec/fromDict';
export type {
  MemoryDict,
  MessageDict,
  ToolCallDict,
  ContentPartDict,
  ExtensionDict,
} from '../serialization/types';
export type { MemoryListener } from '../facade/ConversationMemory';
export type {
  OpenAIChatTextPart,
  OpenAIChatImagePart,
  OpenAIChatContentPart,
  OpenAIChatToolCall,
  OpenAIChatSystemMessage,
  OpenAIChatUserMessage,
  OpenAIChatAssistantMessage,
  OpenAIChatToolMessage,
  OpenAIChatMessage,
} from '../formats/openaiChatTypes';
export type { OpenAIChatReply } from '../codec/openaiChatCompletion';
export type { ProviderReply } from '../codec/providerReply';
export type {
  AnthropicTextBlock,
  AnthropicImageSource,
  AnthropicImageBlock,
  AnthropicToolUseBlock,
  AnthropicToolResultBlock,
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicTranscript,
  AnthropicCacheControl,
  AnthropicCachedTranscript,
} from '../formats/anthropicTypes';
export type { ToAnthropicOptions } from '../formats/anthropic';
export type { CacheTtl, CacheBreakpoints, CompletionCache } from '../model/promptCache';
export type {
  TranscriptRule,
  TranscriptProvider,
  TranscriptViolation,
} from '../formats/transcriptRule';
export type {
  Agent,
  AgentConfig,
  AgentErrorContext,
  AgentInput,
  AgentObserver,
  AgentOptions,
  AgentRecallOptions,
  AgentRunResult,
  AgentTool,
  ResumeOptions,
  RunOptions,
  ToolContext,
} from '../agent/types';
export type {
  Provider,
  CompletionRequest,
  CompletionResult,
  CompletionStreamPart,
  CompletionUsage,
  ToolSpec,
} from '../agent/provider';
export type {
  ModelCallInfo,
  ModelResultInfo,
  ModelErrorInfo,
  ToolStartInfo,
  ToolEndInfo,
} from '../agent/hooks';
export type { AgentStream, AgentStreamEvent } from '../agent/streamEvents';
export type {
  ModelView,
  ModelViewOptions,
  MaskToolResults,
  TranscriptEntry,
  ViewChange,
  ViewCacheOption,
  ViewOmissionReason,
  ViewTarget,
  RecallOptions,
  RecallSource,
} from '../view/viewTypes';
export type { RecallIndex } from '../view/recall/recallIndex';
export type { ErrorCode } from '../errors/errorBrand';
export type { DecodeFailureKind, DecodeErrorOptions } from '../errors/memoryErrors';
export type {
  EventStore,
  EventStoreOptions,
  AppendOptions,
  AppendResult,
  ReadOptions,
  StoredAction,
  LoadOptions,
  LoadedStream,
  StreamInfo,
  StreamOptions,
  PruneOptions,
} from '../stores/event/types';
// The retention contract every session, event and knowledge store keeps (sweep, deleteNamespace)
export type { RemovedCount, RetentionStore, StoreExpiryOptions } from '../stores/kit/retention';
export type { ActionListener } from '../facade/RecordedMemory';
export type {
  ExportEventLogOptions,
  ImportEventLogOptions,
} from '../stores/event/eventLogTransfer';
export type { AgentEventStore, AgentSession } from '../agent/types';
