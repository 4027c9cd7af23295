import { describe, expect, it } from 'vitest';
import { formatCell, renderTable } from '../../bench/table.ts';

describe('renderTable', () => {
  it('aligns labels left and figures right under a rule', () => {
    const text = renderTable(['figure', 'value'], [
      ['search p50 ms', 1.234],
      ['http rps', 12500],
    ]);
    expect(text.split('\n')).toEqual([
      'figure          value',
      '-------------  ------',
      'search p50 ms    1.23',
      'http rps       12,500',
    ]);
  });

  it('shows a dash for a figure that was not measured', () => {
    expect(formatCell(null)).toBe('-');
    expect(formatCell(undefined)).toBe('-');
    expect(formatCell(Number.NaN)).toBe('-');
    expect(formatCell(1234.56)).toBe('1,235');
  });
});
