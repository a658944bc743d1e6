import { escapeText } from '../../util/escapeText';
import { inForceText, knowledgeChangeText, timeText } from '../model/knowledgeText';
import type { StepKnowledge } from '../model/knowledgeTypes';
import type { Style } from './style';

/**
 * The knowledge at a step as lines, for `inspect --at N`: a heading with the step's time and how
 * many facts are in force, then what the step changed (read, added, merged, retired with the
 * reason and what superseded it, expired, dropped), then the blocks the model receives, one line
 * each, with the query they were scoped to. Every text from the file is escaped.
 *
 * @param knowledge - the step's knowledge
 * @param style - the terminal styles
 * @returns the lines
 * @example
 * ```ts
 * knowledgeLines(stepKnowledge(log, 7), createStyle(false))[0];
 * // 'Knowledge (time 1970-01-01T00:00:02.000Z): in force 3 entities (1 attribute), 2 relations, 0 entries'
 * ```
 */
export const knowledgeLines = (knowledge: StepKnowledge, style: Style): string[] => {
  const lines = [
    style.bold(
      `Knowledge (time ${timeText(knowledge.now)}): in force ${inForceText(knowledge.inForce)}`,
    ),
  ];
  if (knowledge.changes.length === 0) lines.push(style.dim('changed at this step: nothing'));
  else {
    lines.push(`changed at this step: ${knowledge.changes.length}`);
    for (const change of knowledge.changes) {
      const line = `  ${knowledgeChangeText(change)}`;
      lines.push(
        change.change === 'added'
          ? style.cyan(line)
          : change.change === 'read' || change.change === 'merged'
            ? line
            : style.red(line),
      );
    }
  }
  const { blocks } = knowledge.blocks;
  const query = `query "${escapeText(knowledge.query, 60)}"`;
  if (blocks.length === 0) {
    lines.push(style.dim(`blocks the model receives (${query}): none`));
    return lines;
  }
  const tokens = blocks.reduce((sum, block) => sum + block.tokens, 0);
  lines.push(
    `blocks the model receives (${query}): ${blocks.length} block${blocks.length === 1 ? '' : 's'}, ${tokens} tokens (estimated: a quarter of the characters)`,
  );
  for (const line of knowledge.blocks.text.split('\n')) {
    lines.push(line === '' ? '' : style.cyan(`  ${escapeText(line, 200)}`));
  }
  return lines;
};
