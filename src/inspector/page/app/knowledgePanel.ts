/// <reference lib="dom" />
import { factText } from '../../model/factRefs';
import { inForceText, knowledgeChangeText, timeText } from '../../model/knowledgeText';
import type { KnowledgeChange, StepKnowledge } from '../../model/knowledgeTypes';
import { el } from './dom';

/** The badge of a change: what happened, with the reason of a retirement. */
const badgeOf = (change: Exclude<KnowledgeChange, { change: 'read' }>): string =>
  change.change === 'retired' ? `retired: ${change.reason}` : change.change;

/** One change of the step as a list item: its badge, the fact's text, what superseded it. */
const changeItem = (change: KnowledgeChange): HTMLElement => {
  const item = el('li', { class: `change change-${change.change}`, 'data-change': change.change });
  item.title = knowledgeChangeText(change);
  if (change.change === 'read') {
    item.append(
      el('span', { class: 'read' }, `read ${change.source} #${change.from}–#${change.to}`),
    );
    return item;
  }
  item.setAttribute('data-kind', change.fact.kind);
  item.setAttribute('data-id', change.fact.id);
  if (change.change === 'retired') item.setAttribute('data-reason', change.reason);
  item.append(
    el('span', { class: 'mark' }, badgeOf(change)),
    el('span', { class: 'fact-kind' }, `${change.fact.kind} ${change.fact.id}`),
    el('span', { class: 'fact-text' }, change.fact.text),
  );
  if (change.change === 'retired' && change.by !== null) {
    item.setAttribute('data-by', change.by.id);
    item.append(el('span', { class: 'by' }, `replaced by ${change.by.id}: ${change.by.text}`));
  }
  return item;
};

/** A fact in force as a list item. */
const factItem = (kind: string, id: string, text: string): HTMLElement => {
  const item = el('li', { class: `fact fact-${kind}`, 'data-kind': kind, 'data-id': id });
  item.append(el('span', { class: 'fact-kind' }, `${kind} ${id}`), el('span', {}, text));
  return item;
};

/**
 * The knowledge panel of a step: how many facts are in force and the step's time, what the step
 * changed (a fact retired, expired or dropped struck through, with its reason and, when superseded,
 * the fact that replaced it), the facts in force, and the blocks the model receives (with the
 * query they were scoped to). Hidden when the state has no knowledge. Text only, never HTML.
 *
 * @param section - the panel's section (hidden without knowledge)
 * @param panel - the element to fill
 * @param knowledge - the step's knowledge, or `null`
 * @example
 * ```ts
 * renderKnowledge(byId('knowledge-panel'), byId('knowledge'), stepper.knowledgeAt(7));
 * ```
 */
export const renderKnowledge = (
  section: HTMLElement,
  panel: HTMLElement,
  knowledge: StepKnowledge | null,
): void => {
  section.hidden = knowledge === null;
  if (knowledge === null) {
    panel.replaceChildren();
    return;
  }
  const changes = el('ul', { id: 'knowledge-changes' });
  changes.append(...knowledge.changes.map(changeItem));
  if (knowledge.changes.length === 0) changes.append(el('li', { class: 'empty' }, '(no change)'));
  const inForce = el('ul', { id: 'knowledge-in-force' });
  for (const entity of knowledge.inForce.entities) {
    inForce.append(factItem('entity', entity.id, factText('entity', entity)));
    for (const attribute of entity.attributes) {
      inForce.append(
        factItem('attribute', attribute.id, factText('attribute', attribute, entity.name)),
      );
    }
  }
  for (const relation of knowledge.inForce.relations) {
    inForce.append(factItem('relation', relation.id, factText('relation', relation)));
  }
  for (const entry of knowledge.inForce.entries) {
    inForce.append(factItem('entry', entry.id, factText('entry', entry)));
  }
  if (inForce.childElementCount === 0) inForce.append(el('li', { class: 'empty' }, '(none)'));
  const blocks = knowledge.blocks.text;
  panel.replaceChildren(
    el(
      'p',
      { class: 'knowledge-figures' },
      `in force: ${inForceText(knowledge.inForce)} · time ${timeText(knowledge.now)}`,
    ),
    el('h3', {}, 'changed at this step'),
    changes,
    el('h3', {}, 'in force'),
    inForce,
    el('h3', {}, 'blocks the model receives'),
    el(
      'p',
      { class: 'knowledge-query' },
      `query: ${knowledge.query === '' ? '—' : knowledge.query}`,
    ),
    blocks === ''
      ? el('p', { class: 'empty', id: 'knowledge-blocks' }, '(no blocks)')
      : el('pre', { id: 'knowledge-blocks' }, blocks),
  );
};
