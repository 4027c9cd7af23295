/**
 * categories.json: each record, duplicate ids and slugs, unknown parents and
 * parent cycles. With skipInvalid, a bad category is dropped, and so is every
 * category below it (its parent is then unknown), until what is left is a forest.
 */
import { CategoryRecordSchema, type CategoryRecord } from '../schemas/dataset.ts';
import type { IssueLog } from './validate-issues.ts';
import { checkRecord } from './validate-zod.ts';

export interface AcceptedCategory {
  record: CategoryRecord;
  /** Index in categories.json, kept as categories.position. */
  index: number;
}

export interface CategoryCheck {
  accepted: AcceptedCategory[];
  /** Ids of category records left out (so dependents can say why). */
  rejectedIds: Set<string>;
}

/**
 * `skipInvalid` only changes what is said about dependents: a child of a bad
 * category is reported when it is skipped, and left unmentioned when the build
 * fails anyway (the parent's own problem is the one to fix).
 */
export function validateCategories(file: string, records: unknown[], issues: IssueLog, skipInvalid: boolean): CategoryCheck {
  const report = (index: number, field: string, message: string) =>
    issues.add({ file, line: index, place: 'index', field, message });

  const candidates: AcceptedCategory[] = [];
  const rejected = new Set<string>();
  const byId = new Map<string, AcceptedCategory>();
  const slugs = new Map<string, number>();
  records.forEach((raw, index) => {
    const checked = checkRecord(CategoryRecordSchema, raw);
    const rawId = (raw as { id?: unknown } | null)?.id;
    if (!checked.ok && typeof rawId === 'string' && !byId.has(rawId)) rejected.add(rawId);
    if (!checked.ok) {
      for (const issue of checked.issues) report(index, issue.field, issue.message);
      return;
    }
    const record = checked.value;
    const sameId = byId.get(record.id);
    if (sameId) return report(index, 'id', `duplicate id "${record.id}" (first at index ${sameId.index})`);
    const sameSlug = slugs.get(record.slug);
    if (sameSlug !== undefined) return report(index, 'slug', `duplicate slug "${record.slug}" (first at index ${sameSlug})`);
    const accepted = { record, index };
    byId.set(record.id, accepted);
    slugs.set(record.slug, index);
    candidates.push(accepted);
  });

  // Parent cycles: walk up from each category; meeting the start again is a cycle.
  const inCycle = new Set<string>();
  for (const c of candidates) {
    const seen = new Set<string>([c.record.id]);
    let parent = c.record.parentId;
    while (parent !== null && byId.has(parent)) {
      if (parent === c.record.id) {
        inCycle.add(c.record.id);
        break;
      }
      if (seen.has(parent)) break; // a cycle above, reported for its own members
      seen.add(parent);
      parent = byId.get(parent)!.record.parentId;
    }
  }

  const dropped = new Set<string>();
  for (const c of candidates) {
    const { id, parentId } = c.record;
    if (inCycle.has(id)) {
      report(c.index, 'parentId', `parent chain loops back to "${id}" (categories must form a tree)`);
      dropped.add(id);
    } else if (parentId !== null && !byId.has(parentId)) {
      if (!rejected.has(parentId)) report(c.index, 'parentId', `unknown parent category "${parentId}"`);
      else if (skipInvalid) report(c.index, 'parentId', `parent category "${parentId}" is invalid`);
      dropped.add(id);
    }
  }
  // Children of dropped categories lose their parent too (reported once each).
  let changed = true;
  while (changed) {
    changed = false;
    for (const c of candidates) {
      const { id, parentId } = c.record;
      if (dropped.has(id) || parentId === null || !dropped.has(parentId)) continue;
      if (skipInvalid) report(c.index, 'parentId', `parent category "${parentId}" is invalid`);
      dropped.add(id);
      changed = true;
    }
  }
  for (const id of dropped) rejected.add(id);
  return { accepted: candidates.filter((c) => !dropped.has(c.record.id)), rejectedIds: rejected };
}
