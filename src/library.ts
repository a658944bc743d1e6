/**
 * The implementation behind every browser-safe entry: the root (`src/entries/index.ts`),
 * `conversation-memory/store-kit`, `/testing`, `/sse`, `/tokens` and `/constants` each re-export
 * their part of this list. The build keeps it one module (`dist/library.js`, not importable by
 * users: the package's `exports` map does not list it), so all entries share one copy of each
 * module: one tokenizer registry, one class per error.
 *
 * @internal
 */

// Model
export { ROLES, isRole } from './model/role';
export { DEFAULT_CONFIG } from './model/config';
export { PROVIDER_SAFE } from './model/providerSafe';
export { userMessage, assistantMessage, systemMessage, toolMessage } from './messages/constructors';
export { imageMessage } from './messages/imageMessage';

// Reducers
export { createMemory } from './core/createMemory';
export { addMessage } from './core/addMessage';
export { addMessages } from './core/addMessages';
export { enforceLimits } from './core/enforceLimits';
export { reconfigure } from './core/reconfigure';
export { fixToolPairBoundary } from './core/fixToolPairBoundary';
export { applySummary, MAX_SUMMARY_CHARS } from './core/applySummary';
export { setSummary } from './core/setSummary';
export { clearMemory } from './core/clearMemory';
export { holdForSummary } from './core/holdForSummary';
export { commitSummary } from './core/commitSummary';
export { planTrim } from './core/planTrim';
export { memoryTransition, memoryReducer } from './core/memoryTransition';

// Actions, event logs, envelopes
export { memoryActions } from './actions/memoryActions';
export { decodeAction } from './codec/decodeAction';
export {
  createEventLog,
  appendAction,
  replay,
  seek,
  fork,
  timeline,
  logActions,
  DEFAULT_SNAPSHOT_EVERY,
  MAX_SNAPSHOT_EVERY,
} from './log/eventLog';
export { encodeEnvelope, decodeEnvelope, ENVELOPE_VERSION } from './codec/envelope';
export { MAX_PENDING_MESSAGES, MAX_SUMMARY_COVERAGE } from './model/state';

// Selectors
export {
  getHistory,
  getRecent,
  getSummary,
  getTotalTokens,
  getPositions,
  getPendingSummary,
} from './core/selectors';

// Tokens
export {
  registerTokenizer,
  loadTokenizer,
  isKnownTokenizer,
  countMessageTokens,
  BUILT_IN_TOKENIZERS,
} from './tokens/registry';
export { estimateTokens, estimateTokensFallback } from './tokens/estimateTokens';
export { encodingForModel } from './tokens/modelEncodings';
export { messageText } from './tokens/messageText';
export { countHeuristicTokens } from './tokens/heuristic';

// Serialization and decoding
export { toDict, messageToDict } from './serialization/toDict';
export { fromDict, fromDictWithEffects } from './codec/fromDict';
export { decodeConfig } from './codec/decodeConfig';
export { decodeState } from './codec/decodeState';
export { EXTENSION_KEY } from './codec/persisted';

// Object API
export { ConversationMemory } from './facade/ConversationMemory';

// The model view: what the next provider call receives
export { modelView } from './view/modelView';
export { interruptedToolResult, INTERRUPTED_TOOL_RESULT } from './view/interruptedToolResult';

// Provider formats
export { validateTranscript } from './formats/validateTranscript';
export { toAnthropic, ANTHROPIC_SYSTEM_SEPARATOR } from './formats/anthropic';
export { imageMediaType } from './formats/imageMediaType';
export { fromAnthropic } from './codec/anthropic';
export { fromAnthropicReply } from './codec/anthropicReply';
export { toOpenAIChat, DEFAULT_IMAGE_MEDIA_TYPE } from './formats/openaiChat';
export { fromOpenAIChat } from './codec/openaiChat';
export { fromOpenAIChatCompletion } from './codec/openaiChatCompletion';
export { decodeModelMessages } from './codec/decodeModelMessages';
// For the AI SDK adapter (not in any entry): the converters' shared reading of a message list.
export { readMessages } from './internal/readMessages';
export { TRANSCRIPT_RULES } from './formats/transcriptRule';

// Agent
export { createAgent } from './agent/createAgent';
export {
  SUMMARIZE_PROMPT,
  SUMMARIZER_SYSTEM_PROMPT,
  SUMMARY_MESSAGE_PREFIX,
} from './agent/prompts';
export {
  LocalProvider,
  LOCAL_CALL_DIRECTIVE,
  LOCAL_DEFAULT_MAX_TOKENS,
  LOCAL_CHARS_PER_TOKEN,
} from './agent/LocalProvider';
// Streaming an agent over server-sent events (web streams only)
export { toServerSentEvents } from './agent/sse/toServerSentEvents';
export { toServerSentEventsResponse } from './agent/sse/toServerSentEventsResponse';
export { readServerSentEvents, SSE_MAX_EVENT_LENGTH } from './agent/sse/readServerSentEvents';

// Errors
export {
  MemoryConfigError,
  MemoryArgumentError,
  MemoryDecodeError,
  InvalidMessageError,
  TokenizerError,
  ListenerError,
} from './errors/memoryErrors';
export { AgentConfigError, ProviderResponseError } from './errors/agentErrors';
export { isConversationMemoryError } from './errors/errorBrand';
export { SessionConflictError, SessionCorruptError, SessionIdError } from './errors/sessionErrors';
export { StoreUnavailableError } from './errors/storeErrors';
export type { StoreUnavailableOptions } from './errors/storeErrors';
export { ServerSentEventsError } from './errors/serverSentEventsErrors';
export { EmbeddingNotPreparedError, EmbeddingRequestError } from './errors/embeddingErrors';

// Sessions (browser-safe; the file, SQLite and Redis stores are at conversation-memory/node)
export { InMemorySessionStore } from './stores/session/InMemorySessionStore';
// Building blocks every store uses (and a custom store should): validation, revisions, TTL, search.
export { describeValue } from './util/describeValue';
export { unknownOption } from './util/unknownOption';
export { readOptionFields } from './internal/readOptionFields';
export {
  MAX_SESSION_ID_LENGTH,
  sessionKeyOf,
  namespaceOf,
  parseSessionKey,
  sessionAddressOf,
  namespaceKeyPrefix,
  isStorageKey,
} from './stores/kit/sessionKey';
export { expectedRevisionOf, checkExpectedRevision } from './stores/kit/revision';
export { checkSessionOptions, checkEventOptions } from './stores/kit/methodOptions';
export type { SessionMethod, EventMethod } from './stores/kit/methodOptions';
export { sessionTtlOf, sessionClockOf, isSessionExpired } from './stores/kit/ttl';
export { openStoreCall } from './stores/kit/storeCall';
export type { StoreCall } from './stores/kit/storeCall';
export type {
  RevisionedStore,
  RevisionedRecordOptions,
  RevisionedSaveOptions,
  LoadedRevision,
  SavedRevision,
} from './stores/kit/revisionedStore';
export {
  DEFAULT_SEARCH_LIMIT,
  searchTerms,
  searchLimitOf,
  snippetOf,
  scoreSessionMessages,
  rankSearchResults,
  compareCodePoints,
} from './stores/kit/search';
export type {
  SessionStore,
  SessionOptions,
  SaveOptions,
  SavedSession,
  LoadedSession,
  SessionAddress,
  SessionMetadata,
  SessionSearchResult,
  SearchOptions,
  SessionStoreOptions,
} from './stores/session/types';
export type { SessionKey } from './stores/kit/sessionKey';

export type { Role } from './model/role';
export type { Message, ToolCall, ContentPart, JsonValue, JsonObject } from './model/message';
export type { MessageInput, ToolCallInput, ContentPartInput } from './model/messageInput';
export type { ToolResultOrigin } from './messages/constructors';
export type { Base64Image } from './messages/imageMessage';
export type { MemoryConfig, MemoryOptions, TokenizerName, ToolPairPolicy } from './model/config';
export type { MemoryState, PositionRun } from './model/state';
export type { MemoryAction, MemoryActionType } from './model/actions';
export type { HeldTrim } from './core/holdForSummary';
export type { ActionCreator } from './actions/memoryActions';
export type { EventLog, EventLogOptions, TimelineStep } from './log/eventLog';
export type { LogVector } from './log/logVector';
export type { Envelope, DecodedEnvelope } from './codec/envelope';
export type { SummaryCoverage } from './model/summaryCoverage';
export type { TrimPlan } from './core/planTrim';
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
} from './model/effects';
export type { MessageTokenCounter } from './tokens/registry';
export type { EncodingName } from './tokens/encodings';
export type { FromDictOptions } from './codec/fromDict';
export type {
  MemoryDict,
  MessageDict,
  ToolCallDict,
  ContentPartDict,
  ExtensionDict,
} from './serialization/types';
export type { MemoryListener } from './facade/ConversationMemory';
export type { LocalProviderOptions } from './agent/LocalProvider';
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
} from './formats/openaiChatTypes';
export type { OpenAIChatReply } from './codec/openaiChatCompletion';
export type { ProviderReply } from './codec/providerReply';
export type {
  AnthropicTextBlock,
  AnthropicImageSource,
  AnthropicImageBlock,
  AnthropicToolUseBlock,
  AnthropicToolResultBlock,
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicTranscript,
} from './formats/anthropicTypes';
export type {
  TranscriptRule,
  TranscriptProvider,
  TranscriptViolation,
} from './formats/transcriptRule';
export type {
  Agent,
  AgentConfig,
  AgentErrorContext,
  AgentInput,
  AgentObserver,
  AgentOptions,
  AgentRunResult,
  AgentTool,
  ResumeOptions,
  RunOptions,
  ToolContext,
} from './agent/types';
export type {
  Provider,
  CompletionRequest,
  CompletionResult,
  CompletionStreamPart,
  CompletionUsage,
  ToolSpec,
} from './agent/provider';
export type {
  ModelCallInfo,
  ModelResultInfo,
  ModelErrorInfo,
  ToolStartInfo,
  ToolEndInfo,
} from './agent/hooks';
export type { AgentStreamEvent } from './agent/streamEvents';
export type {
  ModelView,
  ModelViewOptions,
  MaskToolResults,
  TranscriptEntry,
  ViewChange,
  ViewOmissionReason,
  ViewTarget,
} from './view/viewTypes';
export type { ReadServerSentEventsOptions } from './agent/sse/readServerSentEvents';
export type { ToServerSentEventsOptions } from './agent/sse/toServerSentEventsOptions';
export type { ErrorCode } from './errors/errorBrand';
export type { DecodeFailureKind, DecodeErrorOptions } from './errors/memoryErrors';

// Event store: append-only action streams (InMemoryEventStore here, SqliteEventStore and
// RedisEventStore at conversation-memory/node). The building blocks below are what every store
// uses to check arguments and read or write its records (public at conversation-memory/store-kit).
export { EventConflictError, EventCorruptError } from './errors/eventErrors';
export { InMemoryEventStore } from './stores/event/InMemoryEventStore';
export {
  checkAppend,
  readRangeOf,
  atVersionOf,
  checkAtVersion,
  snapshotEveryOf,
} from './stores/kit/eventArgs';
export {
  encodeActionJson,
  readActionJson,
  applyStoredAction,
  encodeConfigJson,
  readConfigJson,
  sameConfig,
  checkSameConfig,
  encodeSnapshotJson,
  readSnapshotJson,
} from './stores/kit/eventRecords';
export type { CheckedAppend } from './stores/kit/eventArgs';
export type { RecordPlace, SnapshotPlace } from './stores/kit/eventRecords';
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
} from './stores/event/types';

// A memory that reports each change as its action (what the agent appends to an event store), and
// moving a stream to and from an event log (timeline, seek, fork and the inspector work on it).
export { RecordedMemory } from './facade/RecordedMemory';
export type { ActionListener } from './facade/RecordedMemory';
export { exportEventLog, importEventLog } from './stores/event/eventLogTransfer';
export type { ExportEventLogOptions, ImportEventLogOptions } from './stores/event/eventLogTransfer';
export type { AgentEventStore, AgentSession } from './agent/types';

// Knowledge modules (conversation-memory/knowledge): entity memory, the knowledge graph and
// long-term knowledge memory, as facts in one immutable state changed by reducers.
export { createKnowledge } from './knowledge/createKnowledge';
export {
  DEFAULT_KNOWLEDGE_LIMITS,
  SINGLE_VALUED_RELATIONS,
  MAX_FACT_SOURCES,
} from './model/knowledge';
export type {
  KnowledgeState,
  KnowledgeCursors,
  KnowledgeLimits,
  Entity,
  EntityAttribute,
  Relation,
  KnowledgeEntry,
  FactRecord,
  FactSource,
  RetireReason,
  ExtractedEntity,
  ExtractedTriple,
} from './model/knowledge';
export type {
  ExtractionSource,
  FactsExtractedPayload,
  RememberedPayload,
  ForgottenPayload,
  KnowledgeAction,
} from './model/knowledgeActions';
export type {
  FactKind,
  MergeRule,
  KnowledgeEffect,
  FactAddedEffect,
  FactMergedEffect,
  FactRetiredEffect,
  FactsDroppedEffect,
  CursorMovedEffect,
} from './model/knowledgeEffects';

// Knowledge retrieval: the blocks of facts a model receives, scoped to the user's message and
// packed within a token budget, sanitized by default.
export { knowledgeBlocks } from './knowledge/retrieval/knowledgeBlocks';
export { scoreFacts } from './knowledge/retrieval/scoreFacts';
export { BM25_K1, BM25_B } from './knowledge/retrieval/bm25';
export { sanitizeKnowledgeText } from './knowledge/retrieval/sanitizeKnowledgeText';
export {
  KNOWN_RELATIONSHIPS_HEADER,
  KNOWN_ENTITIES_HEADER,
  IMPORTANT_KNOWLEDGE_HEADER,
  GENERAL_KNOWLEDGE_HEADER,
  IMPORTANT_KNOWLEDGE_MIN,
  TRUNCATED_SUFFIX,
  BLOCK_SEPARATOR,
  RESERVED_HEADERS,
} from './knowledge/retrieval/headers';
export type { FactScorer, FactDocument, ScoreFactsOptions } from './knowledge/retrieval/scoreFacts';
export type {
  KnowledgeBlockModule,
  GraphBlockOptions,
  EntitiesBlockOptions,
  KnowledgeBlockOptions,
  KnowledgeBlocksOptions,
  KnowledgeBlock,
  KnowledgeBlocksResult,
} from './knowledge/retrieval/types';
// Knowledge extraction (conversation-memory/knowledge): the reference's prompts and tools, the
// readers of a model's answer, and the deterministic local extractor.
export {
  ENTITY_EXTRACTION_PROMPT,
  ENTITY_EXTRACTION_SYSTEM_PROMPT,
  TRIPLE_EXTRACTION_PROMPT,
  TRIPLE_EXTRACTION_SYSTEM_PROMPT,
  EXTRACTION_MAX_TOKENS,
  DEFAULT_EXTRACTION_MODEL,
  renderExtractionConversation,
  entityExtractionPrompt,
  tripleExtractionPrompt,
  REMEMBER_TOOL,
  REMEMBER_PERSISTENT_TRUE,
  RECALL_TOOL,
  RECALL_DEFAULT_LIMIT,
} from './knowledge/extraction/prompts';
export type { KnowledgeToolSpec } from './knowledge/extraction/prompts';
export { readEntityAnswer } from './knowledge/extraction/readEntityAnswer';
export { readTripleAnswer } from './knowledge/extraction/readTripleAnswer';
export {
  MAX_ANSWER_CHARS,
  MAX_EXTRACTED_ITEMS,
  MAX_EXTRACTED_NAME_CHARS,
  MAX_ATTRIBUTE_VALUE_CHARS,
  MAX_ENTITY_ATTRIBUTES,
} from './knowledge/extraction/answerLimits';
export {
  extractEntitiesLocally,
  extractTriplesLocally,
  LOCAL_USER_ENTITY,
} from './knowledge/extraction/localExtractor';
export { KnowledgeExtractionError } from './errors/knowledgeErrors';
export { decodeKnowledgeState } from './codec/knowledgeState';
export { knowledgeStateToSave, readKnowledgeJson } from './stores/kit/knowledgeRecords';
export {
  MAX_KNOWLEDGE_FACTS,
  MAX_ENTITY_PARTS,
  MAX_KNOWLEDGE_TEXT_LENGTH,
  MAX_KNOWLEDGE_POSITION,
  MAX_KNOWLEDGE_TIME,
} from './knowledge/codec/knowledgeLimits';
export {
  readReferenceKnowledgeJsonl,
  readReferenceKnowledgeRecord,
} from './knowledge/codec/referenceKnowledge';
export { KnowledgeConflictError, KnowledgeCorruptError } from './errors/knowledgeStoreErrors';
export { checkKnowledgeOptions, listNamespace } from './stores/kit/methodOptions';
export { checkKnowledgeRevision } from './stores/kit/revision';
export type { KnowledgeMethod } from './stores/kit/methodOptions';
export { InMemoryKnowledgeStore } from './stores/knowledge/InMemoryKnowledgeStore';
export type {
  KnowledgeStore,
  KnowledgeStoreOptions,
  KnowledgeSaveOptions,
  LoadedKnowledge,
  SavedKnowledge,
  KnowledgeListing,
} from './stores/knowledge/types';

// Knowledge reducers and actions, and the agent's knowledge modules.
export { knowledgeTransition } from './knowledge/knowledgeTransition';
export { factsExtracted } from './knowledge/factsExtracted';
export { remembered, expiresAt } from './knowledge/remembered';
export { forgotten, findEntry } from './knowledge/forgotten';
export { clearKnowledge } from './knowledge/clearKnowledge';
export type { KnowledgeTransition } from './knowledge/knowledgeDraft';
export { NEAR_DUPLICATE_SIMILARITY } from './knowledge/nameShingles';
export { KEEP_HALF_LIFE_MS, ENTITY_IMPORTANCE } from './knowledge/keepScore';
export {
  createEntityMemory,
  createKnowledgeGraph,
  createKnowledgeMemory,
} from './agent/knowledge/createModules';
export type {
  EntityMemory,
  EntityMemoryOptions,
  KnowledgeGraph,
  KnowledgeGraphOptions,
  KnowledgeMemory,
  KnowledgeMemoryOptions,
  KnowledgeModule,
  KnowledgeListener,
  ExtractionPrompt,
} from './agent/knowledge/moduleTypes';
export { FORGET_TOOL } from './agent/run/knowledgeTools';
export { knowledgeActions } from './actions/knowledgeActions';

// Redundancy pruning (conversation-memory/pruning): embedders, and the planner for browsers.
export { enableRedundantPruning } from './core/enableRedundantPruning';
export { registerEmbedder, isKnownEmbedder } from './similarity/embedders';
export type { Embedder } from './similarity/embedders';
export { embeddingText } from './similarity/embeddingText';
export { EmbedderError } from './errors/memoryErrors';
export type { EmbedderName, PrunePolicy } from './model/config';
