/** GET /api/v1/reports/{report_slug} (docs/interface.md, Report). */
import { ReportResponseSchema } from '../../schemas/api/responses.ts';
import { report } from '../../query/reports.ts';
import { ApiError } from '../errors.ts';
import { clip } from './catalog.ts';
import { defineRoute } from './route.ts';

export const reportRoute = defineRoute({
  path: '/api/v1/reports/{report_slug}',
  operationId: 'getReport',
  summary: 'A published market report with figures computed from the snapshot',
  description: 'Commercial figures use displayable IDR values only. Published: web-development-indonesia-2026.',
  tag: 'Reports',
  pathParams: { report_slug: 'report slug, e.g. web-development-indonesia-2026' },
  response: ReportResponseSchema,
  errors: ['REPORT_NOT_FOUND'],
  cache: 'snapshot',
  handle({ pathParams, snapshot }) {
    const slug = pathParams.report_slug ?? '';
    const body = report(snapshot, slug);
    if (!body) throw new ApiError('REPORT_NOT_FOUND', `No report has the slug "${clip(slug)}".`);
    return { body };
  },
});
