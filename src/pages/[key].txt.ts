import type { APIRoute, GetStaticPaths } from 'astro';
import { indexNowKeyParams, indexNowKeyResponse } from '../site/text-endpoints.ts';

// The IndexNow key file: /{INDEXNOW_KEY}.txt (one path).
export const getStaticPaths = (() => indexNowKeyParams()) satisfies GetStaticPaths;

export const GET: APIRoute = () => indexNowKeyResponse();
