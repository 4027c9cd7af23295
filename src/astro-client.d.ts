// Astro's client types (import.meta.env and friends). `astro sync` also writes
// them into the generated .astro folder, but a fresh clone has none until the first
// build, and `npm test` type-checks before anything builds. (Not named after
// src/env.ts, the settings module: a declaration file of that name would shadow it.)
/// <reference types="astro/client" />
