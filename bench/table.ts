/**
 * The plain-text table the benchmark prints: left-aligned first column, right-aligned
 * figures, a rule under the header. Pure; unit-tested in tests/bench/table.test.ts.
 */

export type Cell = string | number | null | undefined;

export function formatCell(value: Cell): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '-';
    if (Number.isInteger(value)) return value.toLocaleString('en-US');
    return value.toLocaleString('en-US', { maximumFractionDigits: Math.abs(value) >= 100 ? 0 : 2, minimumFractionDigits: 0 });
  }
  return value;
}

export function renderTable(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const text = [header.map(String), ...rows.map((r) => header.map((_, i) => formatCell(r[i])))];
  const widths = header.map((_, i) => Math.max(...text.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  const [head, ...body] = text;
  return [line(head!), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}
