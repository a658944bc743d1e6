/**
 * The inspector's timeline model, shared by the `inspect` CLI and the page: browser-safe, plain
 * JSON data.
 */
export { actionLabel, messageLabel } from './actionLabel';
export { coverageText } from './coverageText';
export { parseInput, readInput } from './readInput';
export { summaryChange, trimmedCount } from './stepEffects';
export { timelineRows } from './timelineRows';
export { addStepUsage, stepUsageOf, usageTotal } from './stepUsage';
export { costText, usageFigures, usageText } from './usageFigures';
export { toolGroupsOf } from './toolGroupsOf';
export { createStepper } from './stepper';
export { stepOfText, stepsText } from './stepsText';
export { summaryDiff } from './summaryDiff';
export type { SummaryDiff } from './summaryDiff';
export type { Stepper, StepperOptions } from './stepper';
export { stepView, windowAt } from './windowAt';
export { modelViewAt, stepModelView, VIEW_TARGETS } from './stepModelView';
export { viewChangeText } from './viewChangeText';
export { viewRows } from './viewRows';
export { latestUserText, stepBlocks, stepKnowledge, stepKnowledgeOf } from './stepKnowledge';
export { knowledgeChanges } from './knowledgeChanges';
export { actionTime, knowledgeTimeOf, knowledgeTimes } from './knowledgeClock';
export { factRefs, factText } from './factRefs';
export type { FactRef, FactsInForce, KnowledgeChange, StepKnowledge } from './knowledgeTypes';
export type { ViewRow } from './viewRows';
export type {
  InputKind,
  Inspected,
  RemovalRule,
  SessionInfo,
  StepModelView,
  StepUsage,
  SummaryChange,
  TimelineRow,
  TrimmedCount,
  TrimmedEntry,
  UsageFigures,
  ViewEntry,
  WindowEntry,
  WindowView,
} from './types';
export { inForceText, knowledgeChangeText, timeText } from './knowledgeText';
