/**
 * zod issues -> editor-readable messages ("must be an integer between 0 and 5 (got 7)").
 * Messages written in src/schemas/dataset.ts win (zod gives schema-level messages
 * precedence over this per-parse map); this map fills in zod's generic ones.
 */
import * as z from 'zod';
import { formatPath, showValue, type DatasetIssue } from './validate-issues.ts';

type AnySchema = z.core.$ZodType;

/** The sub-schema at `path` (unwrapping nullable/optional), or undefined. */
function schemaAt(schema: AnySchema, path: ReadonlyArray<PropertyKey> | undefined): AnySchema | undefined {
  let current: AnySchema | undefined = schema;
  for (const key of path ?? []) {
    current = unwrap(current);
    const def = current?._zod.def as { type: string; shape?: Record<string, AnySchema>; element?: AnySchema } | undefined;
    if (!def) return undefined;
    if (def.type === 'object' && typeof key === 'string') current = def.shape?.[key];
    else if (def.type === 'array' && typeof key === 'number') current = def.element;
    else return undefined;
  }
  return unwrap(current);
}

function unwrap(schema: AnySchema | undefined): AnySchema | undefined {
  let current = schema;
  while (current) {
    const def = current._zod.def as { type: string; innerType?: AnySchema };
    if ((def.type === 'nullable' || def.type === 'optional' || def.type === 'default') && def.innerType) current = def.innerType;
    else break;
  }
  return current;
}

/** "an integer between 0 and 5", "a number at least 0", ... from a ZodNumber's bounds. */
function numberRule(schema: AnySchema | undefined): string | undefined {
  if (!(schema instanceof z.ZodNumber)) return undefined;
  const kind = schema.isInt ? 'an integer' : 'a number';
  const min = Number.isFinite(schema.minValue ?? Number.NaN) ? schema.minValue : null;
  const max = Number.isFinite(schema.maxValue ?? Number.NaN) && !schema.isInt ? schema.maxValue : saneMax(schema.maxValue);
  if (min !== null && max !== null) return `${kind} between ${min} and ${max}`;
  if (min !== null) return min === 0 ? `${kind} >= 0` : `${kind} of at least ${min}`;
  if (max !== null) return `${kind} of at most ${max}`;
  return kind;
}

// .int() sets the safe-integer bound; that is not a rule worth showing.
function saneMax(max: number | null | undefined): number | null {
  return max !== null && max !== undefined && Number.isFinite(max) && max < Number.MAX_SAFE_INTEGER ? max : null;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

/** A message for one zod issue, given the record's schema (for number bounds). */
function describe(issue: z.core.$ZodIssue, schema: AnySchema): string {
  const rule = numberRule(schemaAt(schema, issue.path));
  switch (issue.code) {
    case 'invalid_type':
      if (rule) return `must be ${rule}`;
      if ((issue.path ?? []).length === 0) return `the record must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'too_big':
    case 'too_small': {
      if (rule) return `must be ${rule}`;
      const bound = issue.code === 'too_big' ? issue.maximum : issue.minimum;
      if (issue.origin === 'string') {
        if (issue.code === 'too_small' && Number(bound) === 1) return 'must not be empty';
        return `must be ${issue.code === 'too_big' ? 'at most' : 'at least'} ${bound} characters long`;
      }
      if (issue.origin === 'array') return `must have ${issue.code === 'too_big' ? 'at most' : 'at least'} ${bound} items`;
      return `must be ${issue.code === 'too_big' ? 'at most' : 'at least'} ${bound}`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return `must match ${issue.format === 'regex' ? (issue as { pattern?: string }).pattern : issue.format}`;
    default:
      return issue.message;
  }
}

function valueAt(record: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current: unknown = record;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

export type RecordCheck<T> = { ok: true; value: T } | { ok: false; issues: Array<Pick<DatasetIssue, 'field' | 'message'>> };

/** Parses one record; on failure, one message per zod issue with the offending value. */
export function checkRecord<S extends z.ZodType>(schema: S, record: unknown): RecordCheck<z.output<S>> {
  const parsed = schema.safeParse(record, { error: (issue) => describe(issue as z.core.$ZodIssue, schema) });
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => {
      const value = valueAt(record, issue.path);
      const message = value === undefined ? 'is required' : `${issue.message} (got ${showValue(value)})`;
      return { field: formatPath(issue.path), message };
    }),
  };
}
