/**
 * The Debian language data (src/language/sources.ts), read once per test file: a
 * build reads it for a few seconds, so a file that builds several snapshots passes
 * this to each (BuildOptions.languageData).
 */
import { loadLanguageData, type LanguageData } from '../../src/language/sources.ts';

let data: LanguageData | undefined;

export const testLanguageData = (): LanguageData => (data ??= loadLanguageData());
