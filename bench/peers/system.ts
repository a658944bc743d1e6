/**
 * What the harness (`run.ts`) needs of each system under test.
 */
import type { Scenario, ScenarioTurns, View } from './workload';

/** One live memory, already holding the scenario's history. */
export interface Instance {
  /**
   * The timed step: appends timed turn `k`'s messages and returns the window to send (a promise
   * for the asynchronous APIs).
   */
  step(k: number): unknown;
}

/** A system ready for one scenario: conversions and the untimed history replay are done. */
export interface Prepared {
  /** A fresh instance holding the history (untimed). */
  fresh(): Instance | Promise<Instance>;
  /** Describes a window that `step` returned, for the checks (untimed). */
  view(window: unknown): readonly View[];
}

/** A system under test. */
export interface System {
  /** Its row label. */
  readonly label: string;
  /** Prepares it for a scenario; throws {@link Skipped} when the library cannot be used. */
  prepare(scenario: Scenario, turns: ScenarioTurns): Promise<Prepared>;
}

/** A system that could not be loaded: its rows say why instead of failing the run. */
export class Skipped extends Error {
  override readonly name = 'Skipped';
}

/** The reason an import failed, on one line. */
export const reasonOf = (error: unknown): string =>
  (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split('\n')[0] ??
  'unknown error';
