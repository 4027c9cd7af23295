import type { APIRoute, GetStaticPaths } from 'astro';
import { indexNowKeyParams, indexNowKeyResponse } from '../site/text-endpoints.ts';
import { scopeStaticPaths } from '../site/render-scope.ts';
import { pageRenderScope } from '../site/settings.ts';

// The IndexNow key file: /{INDEXNOW_KEY}.txt (one path).
export const getStaticPaths = (() => scopeStaticPaths(pageRenderScope(), '[key].txt', indexNowKeyParams(), (e) => `/${e.params.key}.txt`)) satisfies GetStaticPaths;

export const GET: APIRoute = () => indexNowKeyResponse();
