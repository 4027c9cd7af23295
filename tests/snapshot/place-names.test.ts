/**
 * The rule that names a place the data spells several ways (docs/interface.md,
 * "Place names"), as pure functions: the most common well-cased spelling, else the
 * most common one title-cased; and the spellings the builder renames.
 */
import { describe, expect, it } from 'vitest';
import { isWellCased, placeName, titleCase } from '../../src/text/city-slug.ts';
import { renamedSpellings } from '../../src/snapshot/place-names.ts';

const counts = (entries: [string, number][]) => new Map(entries);

describe('placeName', () => {
  it('takes the most common well-cased spelling, however common the caps-lock ones are', () => {
    expect(placeName(counts([['Denpasar', 11], ['DENPASAR', 2], ['denpasar', 2]]))).toBe('Denpasar');
    expect(placeName(counts([['DENPASAR', 9], ['denpasar', 5], ['Denpasar', 1]]))).toBe('Denpasar');
    expect(placeName(counts([['DKI Jakarta', 3], ['Dki Jakarta', 3]]))).toBe('DKI Jakarta'); // tie: code-point order
    expect(placeName(counts([['Jakarta-Selatan', 1], ['Jakarta Selatan', 4]]))).toBe('Jakarta Selatan');
  });

  it('title-cases the most common spelling when none is well-cased', () => {
    expect(placeName(counts([['DENPASAR', 2], ['denpasar', 3]]))).toBe('Denpasar');
    expect(placeName(counts([['TANGERANG SELATAN', 1]]))).toBe('Tangerang Selatan');
    expect(placeName(counts([['bandar-lampung', 1]]))).toBe('Bandar-Lampung');
    expect(placeName(counts([['KOTA BATU', 2], ['kota batu', 2]]))).toBe('Kota Batu');
  });

  it('knows well-cased from caps lock, and leaves text without letters alone', () => {
    expect(['Denpasar', 'DKI Jakarta', 'Jakarta selatan'].map(isWellCased)).toEqual([true, true, true]);
    expect(['DENPASAR', 'denpasar', '12'].map(isWellCased)).toEqual([false, false, false]);
    expect(titleCase("PULAU D'ARCY (UTARA)")).toBe("Pulau D'arcy (Utara)");
    expect(titleCase('12')).toBe('12');
    expect(titleCase('ÑUÑOA')).toBe('Ñuñoa');
  });
});

describe('renamedSpellings', () => {
  it('renames every spelling of a slug to its place name, and only those that differ', () => {
    const renamed = renamedSpellings([
      { spelling: 'Denpasar', n: 11 },
      { spelling: 'DENPASAR', n: 2 },
      { spelling: 'denpasar', n: 2 },
      { spelling: 'Bandung', n: 5 },
      { spelling: 'KUPANG', n: 1 },
      { spelling: '---', n: 1 },
    ]);
    expect([...renamed].sort()).toEqual([['DENPASAR', 'Denpasar'], ['KUPANG', 'Kupang'], ['denpasar', 'Denpasar']]);
  });
});
