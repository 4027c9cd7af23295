/**
 * A query's cursors, put together from the list cursors of keyword-cursors.ts:
 * a word (its list, or a prefix's expansions summed), a phrase (PhraseCursor: the
 * profiles every word matches; the postings keep no positions, so a phrase is its
 * words' co-occurrence, scoring the sum of its words), and a group (groupCursor:
 * its alternatives' weighted sum, walked through a kept list or split in two).
 */
import { END, PartsCursor, SumCursor, TermCursor, type Cursor } from './keyword-cursors.ts';
import type { KeywordAlternative, KeywordGroup } from './keyword-query.ts';
import type { PostingsSource } from './posting-list.ts';

export class PhraseCursor implements Cursor {
  doc = END;
  upTo = END;
  readonly max: number;
  readonly cost: number;
  /** the words, rarest first, for aligning */
  private readonly byCost: Cursor[];

  private readonly words: Cursor[];
  constructor(words: Cursor[]) {
    this.words = words;
    this.max = words.reduce((m, w) => m + w.max, 0);
    this.cost = Math.min(...words.map((w) => w.cost));
    this.byCost = [...words].sort((a, b) => a.cost - b.cost);
    this.align(this.byCost[0]!.doc);
  }

  /** to the first rowid >= target that every word holds */
  private align(target: number): void {
    let t = target;
    for (let i = 0; i < this.byCost.length && t < END; ) {
      const w = this.byCost[i]!;
      w.seek(t);
      if (w.doc !== t) {
        t = w.doc;
        i = 0;
      } else i++;
    }
    this.doc = t;
  }

  next(): void {
    const lead = this.byCost[0]!;
    lead.next();
    this.align(lead.doc);
  }

  seek(target: number): void {
    if (this.doc >= target) return;
    this.align(target);
  }

  score(): number {
    let s = 0;
    for (const w of this.words) s += w.score();
    return s;
  }

  shallow(target: number): number {
    let bound = 0;
    let upTo = END;
    for (const w of this.words) {
      bound += w.shallow(target);
      if (w.upTo < upTo) upTo = w.upTo;
    }
    this.upTo = upTo;
    return bound;
  }
}

/** A word: its own list, or a prefix's expansions (each expansion the profile holds counts). */
function wordCursor(source: PostingsSource, token: string, prefix: boolean): Cursor {
  if (!prefix) return new TermCursor(source.term(token));
  const terms = source.expansions(token);
  return new SumCursor(
    terms.map((t) => new TermCursor(source.term(t))),
    terms.map(() => 1),
  );
}

export function alternativeCursor(source: PostingsSource, alt: KeywordAlternative): Cursor {
  const last = alt.tokens.length - 1;
  const words = alt.tokens.map((t, i) => wordCursor(source, t, alt.prefix && i === last));
  return words.length === 1 ? words[0]! : new PhraseCursor(words);
}

/**
 * A word list this long is walked as itself inside its group rather than copied into
 * the group's kept list: at 1,000,000 providers a prefix of a common word is one
 * list of 400,000 profiles and a few small ones, and kept unions of that size cost
 * milliseconds each to build and filled the group cache (evicting the service
 * groups). Below it (every list at 100,000 providers but a few function words),
 * the kept list's own block bounds make the walk cheaper than the split.
 */
export const SPLIT_MIN_POSTINGS = 65_536;

/**
 * A group's cursor: the weighted sum of the alternatives a profile matches. A plain
 * word or phrase is walked as it is. A group of words at weight 1 (a prefix's
 * expansions, a word and its dictionary forms) whose largest list is long is that
 * list walked as it is plus the rest as one kept list (postings-store.ts
 * groupList). Every score is a sum of float32 contributions, exact in float64 in
 * any order, so the split scores each profile as the whole group would. Any other
 * group is walked through its kept list, whose block bounds are the group's own and
 * not the sum of its parts'. (`splitMin` other than the default: tests, which split
 * their small lists too.)
 */
export function groupCursor(source: PostingsSource, group: KeywordGroup, splitMin = SPLIT_MIN_POSTINGS): Cursor {
  const alts = group.alternatives;
  const only = alts.length === 1 && alts[0]!.weight === 1 && !alts[0]!.prefix ? alts[0]! : null;
  if (only) return alternativeCursor(source, only);
  const words = alts.every((a) => a.weight === 1 && a.tokens.length === 1) ? alts.flatMap((a) => (a.prefix ? source.expansions(a.tokens[0]!) : a.tokens)) : null;
  if (!words || words.length === 0) return new TermCursor(source.group(group));
  const lists = words.map((w) => source.term(w));
  let head = 0;
  for (let i = 1; i < lists.length; i++) if (lists[i]!.rowids.length > lists[head]!.rowids.length) head = i;
  if (words.length === 1) return new TermCursor(lists[0]!);
  if (lists[head]!.rowids.length < splitMin) return new TermCursor(source.group(group));
  const rest = words.filter((_, i) => i !== head).map((w) => ({ tokens: [w], prefix: false, weight: 1 }));
  return new PartsCursor(new TermCursor(lists[head]!), new TermCursor(source.group({ alternatives: rest })));
}
