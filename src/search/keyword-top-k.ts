/**
 * The k best profiles of a keyword query, without scoring every profile that
 * matches: block-max MaxScore over the groups' cursors (keyword-cursors.ts), in
 * rowid order. The ranking it computes is exactly the exhaustive one (a test holds
 * it to a reference that scores every profile):
 *
 *   score(profile) = sum over groups of the group's score (0 when it does not match)
 *   order: profiles matching every group first when allTopicsFirst, then score
 *          descending, then rowid ascending.
 *
 * How it skips work:
 *  - MaxScore: groups are ordered by their largest possible score; once the k-th
 *    best score reaches the sum of the smallest ones, those groups cannot make a
 *    profile enter alone, so only the other ("essential") groups propose
 *    candidates and the small ones are looked up for those candidates only (with
 *    an early exit when even their maxima cannot lift it). A function word such
 *    as "di" or "untuk" (idf near zero, so tiny maxima) stops proposing candidates
 *    after the first k and costs a lookup per candidate, or nothing.
 *  - Block-max: before the candidates of a block of rowids are looked at, the sum
 *    of every group's bound over that block (the largest contribution in each
 *    list's block) is compared with the k-th best score; a block that cannot
 *    reach it is skipped whole.
 *  - All topics first: the profiles matching every group are found first by a
 *    conjunctive walk led by the rarest group (others are only sought to its
 *    rowids); only when fewer than k exist does the disjunctive walk above fill
 *    the rest, leaving those out.
 *  - Filters: a rowid the filter does not allow moves every cursor to the next
 *    allowed rowid (a gallop in the filter's sorted list).
 *
 * Short queries skip the walk: a single unfiltered list answers from its k best
 * postings (keyword-seeds.ts); plain lists that are few and short (100,000
 * providers) are added up term at a time (keyword-dense.ts), which costs less than
 * walking them when the bounds prune little.
 *
 * The shared bounds, their rounding rule and the moves over a list: keyword-bounds.ts.
 */
import { allows, type FilterSet } from '../query/filter-set.ts';
import { AllowedWalk, blockBound, cannotReach, essentialBlockBound, skipUnreachable, skipUnreachableUpTo } from './keyword-bounds.ts';
import { END, PartsCursor, TermCursor, type Cursor } from './keyword-cursors.ts';
import { accumulatedTopK, accumulates } from './keyword-dense.ts';
import { bestPositions, SeedSkip } from './keyword-seeds.ts';
import { BLOCK, type TermPostings } from './posting-list.ts';
import { TopK } from './top-k.ts';

export interface KeywordTopKOptions {
  k: number;
  filter: FilterSet | null;
  allTopicsFirst: boolean;
  /** tests: force the walk (false) or the accumulation (true) instead of choosing by size */
  accumulate?: boolean;
}

/** Rowids best first. `cursors()` makes fresh cursors, one per group, in query order. */
export function topKeywordMatches(cursors: () => Cursor[], options: KeywordTopKOptions): number[] {
  const { k, filter } = options;
  if (k <= 0) return [];
  const first = cursors();
  if (first.length === 0) return [];
  if (first.length === 1 && first[0] instanceof TermCursor) return topOfList(first[0].list, k, filter);
  const groupOf: number[] = [];
  const parts = first.flatMap((c, g) => {
    const own = c instanceof PartsCursor ? c.parts : [c];
    for (let i = 0; i < own.length; i++) groupOf.push(g);
    return own;
  });
  if (options.accumulate ?? accumulates(parts, first.length)) return accumulatedTopK(parts, groupOf, first.length, k, filter, options.allTopicsFirst && first.length > 1);
  if (!options.allTopicsFirst || first.length === 1) return disjunctive(first, k, filter, false);
  const everyGroup = conjunctive(first, k, filter);
  if (everyGroup.length >= k) return everyGroup;
  return [...everyGroup, ...disjunctive(cursors(), k - everyGroup.length, filter, true)];
}

/**
 * One list (a word, or a group kept as one list): unfiltered, its k best postings
 * (kept per list, keyword-seeds.ts). Filtered, those the filter allows first (so
 * the k-th best starts high), then its blocks in order, skipping a block whose
 * largest score cannot beat the k-th best, testing the others' entries directly.
 * The common case of a single word or service, in a tight loop.
 */
function topOfList(list: TermPostings, k: number, filter: FilterSet | null): number[] {
  const { rowids, impacts, blockMax } = list;
  const best = bestPositions(list, k);
  if (!filter) return Array.from(best, (i) => rowids[i]!);
  const allowed = filter.allowed;
  const top = new TopK(k);
  for (const i of best) if (allows(allowed, rowids[i]!)) top.push(impacts[i]!, rowids[i]!);
  const seeded = new SeedSkip(Int32Array.from(best, (i) => rowids[i]!).sort());
  let threshold = top.threshold;
  for (let b = 0; b < blockMax.length; b++) {
    // Not `<=`: a posting tying the k-th best may have the smaller rowid (the seeds
    // were pushed out of rowid order); push breaks the tie.
    if (blockMax[b]! < threshold) continue;
    for (let i = b * BLOCK, end = Math.min(rowids.length, i + BLOCK); i < end; i++) {
      const score = impacts[i]!;
      if (score < threshold) continue;
      const r = rowids[i]!;
      if (!allows(allowed, r) || seeded.has(r)) continue;
      top.push(score, r);
      threshold = top.threshold;
    }
  }
  return top.ids();
}

/** The score at `doc` in query order (the exhaustive ranking's sum), every cursor being at `doc` or past it. */
function scoreAt(groups: Cursor[], doc: number): number {
  let s = 0;
  for (let g = 0; g < groups.length; g++) s += groups[g]!.doc === doc ? groups[g]!.score() : 0;
  return s;
}

/** Whether `doc` holds every group (`groupOf`: the group of each list; `hit`: scratch, one slot a group). */
function holdsEveryGroup(lists: Cursor[], groupOf: number[], hit: Uint8Array, doc: number): boolean {
  hit.fill(0);
  for (let i = 0; i < lists.length; i++) if (lists[i]!.doc === doc) hit[groupOf[i]!] = 1;
  return hit.every((h) => h === 1);
}

/** The score in query order (the same sum the exhaustive ranking computes). */
function sumInOrder(scores: Float64Array, n: number): number {
  let s = 0;
  for (let g = 0; g < n; g++) s += scores[g]!;
  return s;
}

/**
 * Profiles matching every group, led by the rarest one. Once the heap is full, a
 * block window's bounds give each profile a ceiling: the lead's score plus the
 * others' bounds, lowered as each other group is found and scored (a profile that
 * cannot pass the k-th best is dropped before the remaining groups are sought). A
 * plain lead list, at a posting that cannot pass, skips those that follow in the
 * window in a tight loop.
 */
function conjunctive(groups: Cursor[], k: number, filter: FilterSet | null): number[] {
  const n = groups.length;
  const costOrder = groups.map((_, g) => g).sort((a, b) => groups[a]!.cost - groups[b]!.cost);
  const byCost = costOrder.map((g) => groups[g]!);
  const lead = byCost[0]!;
  const leadList = lead instanceof TermCursor ? lead : null;
  const top = new TopK(k);
  const allowed = filter ? new AllowedWalk(filter) : null;
  const scores = new Float64Array(n);
  const bounds = new Float64Array(n); // in query order, as blockBound sums them
  // boundAfter[i]: the sum of the window's bounds of byCost[i+1 .. n-1]
  const boundAfter = new Float64Array(n);
  const window = { upTo: END };
  let windowEnd = -1;
  let doc = lead.doc;
  outer: while (doc < END) {
    const full = top.size === k;
    if (full && doc > windowEnd) {
      if (blockBound(groups, doc, window, bounds) <= top.threshold) {
        if (window.upTo >= END - 1) break;
        lead.seek(window.upTo + 1);
        doc = lead.doc;
        continue;
      }
      windowEnd = window.upTo;
      boundAfter[n - 1] = 0;
      for (let i = n - 2; i >= 0; i--) boundAfter[i] = boundAfter[i + 1]! + bounds[costOrder[i + 1]!]!;
    }
    if (allowed) {
      const next = allowed.from(doc);
      if (next !== doc) {
        lead.seek(next);
        doc = lead.doc;
        continue;
      }
    }
    // With a full heap, the score so far plus the bounds of the groups not yet sought.
    let partial = full ? lead.score() : 0;
    if (full && cannotReach(partial + boundAfter[0]!, top.threshold)) {
      if (leadList) skipUnreachableUpTo(leadList, boundAfter[0]!, top.threshold, windowEnd);
      else lead.next();
      doc = lead.doc;
      continue;
    }
    for (let i = 1; i < n; i++) {
      const c = byCost[i]!;
      c.seek(doc);
      if (c.doc !== doc) {
        lead.seek(c.doc);
        doc = lead.doc;
        continue outer;
      }
      if (full) {
        partial += c.score();
        if (cannotReach(partial + boundAfter[i]!, top.threshold)) {
          lead.next();
          doc = lead.doc;
          continue outer;
        }
      }
    }
    for (let g = 0; g < n; g++) scores[g] = groups[g]!.score();
    top.push(sumInOrder(scores, n), doc);
    lead.next();
    doc = lead.doc;
  }
  return top.ids();
}

/**
 * Profiles matching any group (block-max MaxScore); with `skipEveryGroup`, those
 * matching all of them are left out (the conjunctive walk ranked them already).
 */
function disjunctive(groupCursors: Cursor[], k: number, filter: FilterSet | null, skipEveryGroup: boolean): number[] {
  // A group of word lists (PartsCursor) is walked as its lists: a common word's list
  // then stops proposing candidates once its own bound falls below the k-th best.
  const groupOf: number[] = [];
  const groups = groupCursors.flatMap((c, g) => {
    const parts = c instanceof PartsCursor ? c.parts : [c];
    for (let i = 0; i < parts.length; i++) groupOf.push(g);
    return parts;
  });
  const n = groups.length;
  const groupHit = new Uint8Array(groupCursors.length);
  // Positions in query order, by largest possible score ascending.
  const order = groups.map((_, g) => g).sort((a, b) => groups[a]!.max - groups[b]!.max);
  const sorted = order.map((g) => groups[g]!);
  const rank = new Int32Array(n); // rank[g]: the position of groups[g] in sorted
  order.forEach((g, j) => (rank[g] = j));
  const maxBelow = new Float64Array(n + 1); // maxBelow[j]: sum of the maxima of sorted[0 .. j-1]
  for (let j = 0; j < n; j++) maxBelow[j + 1] = maxBelow[j]! + sorted[j]!.max;
  const top = new TopK(k);
  const allowed = filter ? new AllowedWalk(filter) : null;
  const window = { upTo: END };
  let windowEnd = -1;
  let essential = 0; // sorted[0 .. essential-1] only looked up, never proposing candidates
  // Inside a block window: each sorted cursor's bound there, and the sums of those of sorted[0 .. j-1].
  const bounds = new Float64Array(n);
  const boundBelow = new Float64Array(n + 1);
  let inWindow = false;

  const leastEssential = () => {
    let d = END;
    for (let j = essential; j < n; j++) if (sorted[j]!.doc < d) d = sorted[j]!.doc;
    return d;
  };
  const seekEssential = (target: number) => {
    for (let j = essential; j < n; j++) sorted[j]!.seek(target);
    return leastEssential();
  };

  // the one list still proposing candidates, when it is a plain list (skipUnreachable)
  let lone: TermCursor | null = null;

  let doc = leastEssential();
  while (doc < END) {
    const threshold = top.threshold;
    // (the skip's call only at a posting that cannot pass: most visits of a lone list pass)
    if (lone && top.size === k && cannotReach(lone.score() + maxBelow[essential]!, threshold)) {
      skipUnreachable(lone, maxBelow[essential]!, threshold);
      doc = lone.doc;
      if (doc === END) break;
    }
    if (top.size === k && doc > windowEnd) {
      if (essentialBlockBound(groups, rank, essential, doc, window, bounds) <= threshold) {
        if (window.upTo >= END - 1) break;
        doc = seekEssential(window.upTo + 1);
        continue;
      }
      windowEnd = window.upTo;
      for (let j = 0; j < n; j++) boundBelow[j + 1] = boundBelow[j]! + bounds[order[j]!]!;
      inWindow = true;
    }
    // the tighter of the block's bounds (inside the window) and the lists' maxima
    const below = inWindow && doc <= windowEnd ? boundBelow : maxBelow;
    if (allowed) {
      const next = allowed.from(doc);
      if (next !== doc) {
        doc = seekEssential(next);
        continue;
      }
    }
    // The visit adds up only what the bounds need; the score and the groups held are
    // read again from the cursors for a profile that is kept (every cursor is then at
    // `doc` or past it), so a rejected visit writes nothing.
    let partial = 0;
    for (let j = essential; j < n; j++) {
      const c = sorted[j]!;
      if (c.doc === doc) partial += c.score();
    }
    let rejected = false;
    for (let j = essential - 1; j >= 0; j--) {
      if (cannotReach(partial + below[j + 1]!, threshold)) {
        rejected = true;
        break;
      }
      const c = sorted[j]!;
      c.seek(doc);
      if (c.doc === doc) partial += c.score();
    }
    if (!rejected && !(skipEveryGroup && holdsEveryGroup(groups, groupOf, groupHit, doc))) {
      top.push(scoreAt(groups, doc), doc);
      if (top.size === k) {
        const t = top.threshold;
        while (essential < n && cannotReach(maxBelow[essential + 1]!, t)) essential++;
        if (essential === n) break; // no group can lift a new profile above the k-th
        const last = sorted[n - 1]!;
        lone = essential === n - 1 && last instanceof TermCursor ? last : null;
      }
    }
    for (let j = essential; j < n; j++) if (sorted[j]!.doc === doc) sorted[j]!.next();
    doc = leastEssential();
  }
  return top.ids();
}
