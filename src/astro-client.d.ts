// Astro's client types (import.meta.env and friends). `astro sync` also writes
// .astro/types.d.ts, but a fresh clone has none until the first build, and
// `npm test` type-checks before anything builds. (Named so that src/env.ts,
// the settings module, does not shadow it as it would a src/env.d.ts.)
/// <reference types="astro/client" />
