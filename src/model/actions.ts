import type { KnowledgeAction } from './knowledgeActions';
import type { MemoryOptions } from './config';
import type { Message } from './message';

/**
 * Every reducer as data: `{ type, payload }`, plain and serializable, so a store can record it,
 * a log can replay it, and `decodeAction` can read it back from JSON. `memoryTransition` applies one.
 *
 * | action                          | reducer                 | payload                    |
 * | ------------------------------- | ----------------------- | -------------------------- |
 * | `memory/messageAdded`           | `addMessage`            | the message                |
 * | `memory/messagesAdded`          | `addMessages`           | the messages               |
 * | `memory/limitsEnforced`         | `enforceLimits`         | none                       |
 * | `memory/toolPairBoundaryFixed`  | `fixToolPairBoundary`   | none                       |
 * | `memory/summaryApplied`         | `applySummary`          | the text                   |
 * | `memory/summarySet`             | `setSummary`            | the text or `null`         |
 * | `memory/cleared`                | `clearMemory`           | none                       |
 * | `memory/trimHeld`               | `holdForSummary`        | `{ removed, positions }`   |
 * | `memory/summaryCommitted`       | `commitSummary`         | `{ text, through }`        |
 * | `memory/reconfigured`           | `reconfigure`           | the config fields to change |
 * | `knowledge/*`                   | `knowledgeTransition`   | see `KnowledgeAction`      |
 *
 * @example
 * ```ts
 * const action: MemoryAction = { type: 'memory/messageAdded', payload: userMessage('hi') };
 * ```
 */
export type MemoryAction =
  | { readonly type: 'memory/messageAdded'; readonly payload: Message }
  | { readonly type: 'memory/messagesAdded'; readonly payload: readonly Message[] }
  | { readonly type: 'memory/limitsEnforced' }
  | { readonly type: 'memory/toolPairBoundaryFixed' }
  | { readonly type: 'memory/summaryApplied'; readonly payload: string }
  | { readonly type: 'memory/summarySet'; readonly payload: string | null }
  | { readonly type: 'memory/cleared' }
  | {
      readonly type: 'memory/trimHeld';
      readonly payload: {
        readonly removed: readonly Message[];
        readonly positions: readonly number[];
      };
    }
  | {
      readonly type: 'memory/summaryCommitted';
      readonly payload: { readonly text: string; readonly through: number };
    }
  | { readonly type: 'memory/reconfigured'; readonly payload: MemoryOptions }
  | KnowledgeAction;

/**
 * The `type` of a {@link MemoryAction}.
 *
 * @example
 * ```ts
 * const type: MemoryActionType = 'memory/cleared';
 * ```
 */
export type MemoryActionType = MemoryAction['type'];
