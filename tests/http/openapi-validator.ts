/**
 * Validates response bodies against the served OpenAPI document with a real JSON
 * Schema 2020-12 validator (ajv), by path template and status.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Doc = {
  paths: Record<string, { get: { responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> } }>;
  components: { schemas: Record<string, object> };
};

export class OpenApiValidator {
  private readonly ajv;
  readonly doc: Doc;
  constructor(doc: Doc) {
    this.doc = doc;
    const Ajv = (Ajv2020 as unknown as { default?: typeof Ajv2020 }).default ?? Ajv2020;
    this.ajv = new Ajv({ strict: false, allErrors: true });
    const formats = (addFormats as unknown as { default?: typeof addFormats }).default ?? addFormats;
    formats(this.ajv);
    this.ajv.addSchema({ $id: 'openapi.json', components: doc.components }, 'openapi.json');
  }

  /** The path template of the document that a concrete path matches. */
  templateOf(pathname: string): string | undefined {
    return Object.keys(this.doc.paths).find((t) =>
      new RegExp('^' + t.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.') + '$').test(pathname),
    );
  }

  /** Errors of the body for that path and status, or [] when it is valid. */
  errors(pathname: string, status: number, body: unknown): string[] {
    const template = this.templateOf(pathname);
    if (!template) return [`no path in the document matches ${pathname}`];
    const response = this.doc.paths[template]!.get.responses[String(status)];
    if (!response) return [`status ${status} is not documented for ${template}`];
    const ref = response.content?.['application/json']?.schema.$ref;
    if (!ref) return body === null ? [] : [`no JSON body documented for ${status} on ${template}`];
    const validate = this.ajv.getSchema('openapi.json' + ref);
    if (!validate) return [`unresolvable ${ref}`];
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  }
}
