/**
 * An app context for in-process tests (src/server/context.ts): settings parsed
 * from the given variables only (never the test process's environment), a quiet
 * logger, and the holder or key services a test makes itself.
 */
import { loadEnv } from '../../src/env.ts';
import { createAppContext, type AppContext, type AppContextParts } from '../../src/server/context.ts';
import { createLogger } from '../../src/server/logging.ts';

export function testAppContext(variables: Record<string, string>, parts: Partial<AppContextParts> = {}): AppContext {
  const env = loadEnv(variables);
  return createAppContext(env, { version: '0.0.0-test', logger: createLogger('silent'), ...parts });
}
