import type { RecallFeed } from './recallFeed';
import type { KnowledgeRun } from './knowledgeStep';
import type { ConversationMemory } from '../../facade/ConversationMemory';
import type { Provider, ToolSpec } from '../provider';
import type { AgentObserver, AgentTool } from '../types';
import type { ReportError } from './notify';
import type { Message } from '../../model/message';
import type { EventJournal } from './eventJournal';
import type { MaskToolResults, ViewTarget } from '../../view/viewTypes';
import type { RunView } from './runView';
import type { CacheTtl } from '../../model/promptCache';
import type { AgentStreamEvent } from '../streamEvents';

/**
 * How summary calls are made, when `summarizeOnTrim` is on.
 *
 * @internal
 */
export interface SummarizeSettings {
  readonly provider: Provider;
  readonly model: string;
  readonly maxTokens: number;
}

/**
 * Masking of stale tool output, when `config.maskToolResults` is on: what every main call's view
 * keeps, and the run's transcript once the run has begun (what `read_tool_result` reads).
 *
 * @internal
 */
export interface MaskRun {
  readonly keep: MaskToolResults;
  view: RunView | undefined;
}

/**
 * Everything one run needs, fixed when the agent is created (plus the run's id and signal).
 *
 * @internal
 */
export interface RunContext {
  readonly runId: string;
  readonly signal: AbortSignal | undefined;
  /**
   * `RunOptions.messageId`: the id every message the run makes (replies, tool results, the kept
   * part of an interrupted reply) is recorded with; `undefined` records them as they are.
   */
  readonly messageId?: string | undefined;
  readonly provider: Provider;
  /** Whose rules every main call's model view meets: the provider's `target`, else `'openai'`. */
  readonly target: ViewTarget;
  readonly model: string;
  readonly systemPrompt: string;
  readonly maxIterations: number;
  readonly tools: ReadonlyMap<string, AgentTool>;
  readonly toolSpecs: readonly ToolSpec[];
  readonly memory: ConversationMemory | undefined;
  readonly observers: readonly AgentObserver[];
  readonly summarize: SummarizeSettings | undefined;
  readonly report: ReportError;
  /** Every message the run added to memory, in order (for a session save that must merge). */
  readonly added?: Message[];
  /** With `eventStore`: every memory change goes through it, appended as its actions. */
  readonly journal?: EventJournal | undefined;
  /** With entity memory, a knowledge graph or knowledge memory: the run's link to them. */
  readonly knowledge?: KnowledgeRun | undefined;
  /** With `config.maskToolResults`: what each view keeps, and the run's transcript. */
  readonly mask?: MaskRun | undefined;
  /** `config.cache`: each main call's view marks its breakpoints; the request carries the key. */
  readonly cache?: { readonly ttl: CacheTtl; readonly key: string | undefined } | undefined;
  /** The `recall` option: each main call's view quotes what left the window and matches. */
  readonly recall?:
    { readonly feed: RecallFeed; readonly budget: number; readonly k: number } | undefined;
  /** `config.markInterrupted`: interrupted replies end with ` [interrupted]` in each view. */
  readonly markInterrupted?: boolean | undefined;
  /** With `agent.stream`: receives each event of the run as it happens. */
  readonly emit?: ((event: AgentStreamEvent) => void) | undefined;
  /**
   * With `agent.stream`: resolves once the reader has taken every event emitted so far and asks
   * for more (or left); a streamed reply's next delta waits for it.
   */
  readonly whenRead?: (() => Promise<void>) | undefined;
}
