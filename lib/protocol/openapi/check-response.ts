import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument, type OpenApiDocument } from "./document";

// Checks one HTTP response against the OpenAPI document: the schema of the
// matching operation and status, with a maintained JSON Schema 2020-12
// validator (ajv). Used by the HTTP test harness on every response the tests
// receive, and by the conformance kit against any server.

export interface ResponseCheck {
  /** The operation found for method + path, or null when the path is not in the document. */
  operationId: string | null;
  /** Empty when the response matches. */
  problems: string[];
}

interface Route {
  method: string;
  re: RegExp;
  template: string;
  operationId: string;
}

const DOC_ID = "supplier-openapi.json";
const ptr = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** A checker bound to one document (ours by default); compiled schemas are cached. */
export function responseChecker(doc: OpenApiDocument = openApiDocument()) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(doc, DOC_ID);
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)) {
    const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);
    for (const [method, op] of Object.entries(item))
      routes.push({ method: method.toUpperCase(), re, template, operationId: op.operationId });
  }
  const compiled = new Map<string, ValidateFunction>();
  const validator = (pointer: string) => {
    let fn = compiled.get(pointer);
    if (!fn) compiled.set(pointer, (fn = ajv.compile({ $ref: `${DOC_ID}#${pointer}` })));
    return fn;
  };
  /**
   * A path or method the document has no operation for: 404 not_found, 405
   * method_not_allowed, or (say, authentication checked first) any D1 error body.
   */
  const generic = (status: number) =>
    status === 404
      ? "/components/responses/NotFound/content/application~1json/schema"
      : status === 405
        ? "/components/responses/MethodNotAllowed/content/application~1json/schema"
        : status >= 400
          ? "/components/schemas/ErrorBody"
          : null;

  return {
    /** Whether the path (query string ignored) is a documented path, and under which operation for this method. */
    find(method: string, path: string): { pathKnown: boolean; route?: Route } {
      const p = path.split("?")[0];
      const matching = routes.filter((r) => r.re.test(p));
      return { pathKnown: matching.length > 0, route: matching.find((r) => r.method === method.toUpperCase()) };
    },

    check(method: string, path: string, status: number, contentType: string | null, bodyText: string): ResponseCheck {
      const { pathKnown, route } = this.find(method, path);
      const where = `${method.toUpperCase()} ${path.split("?")[0]} → ${status}`;
      let pointer: string | null;
      if (route) {
        const paths = doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
        const responses = paths[route.template][route.method.toLowerCase()].responses;
        if (!responses[String(status)])
          return { operationId: route.operationId, problems: [`${where}: status ${status} is not documented for ${route.operationId}`] };
        pointer = `/paths/${ptr(route.template)}/${route.method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
      } else {
        pointer = generic(status);
        if (!pointer)
          return { operationId: null, problems: [`${where}: no documented operation answers this${pathKnown ? " method" : " path"}`] };
      }
      const problems: string[] = [];
      if (!/^application\/json\b/i.test(contentType ?? ""))
        problems.push(`${where}: Content-Type is ${JSON.stringify(contentType)}, not application/json`);
      let body: unknown;
      try {
        body = JSON.parse(bodyText);
      } catch {
        return { operationId: route?.operationId ?? null, problems: [...problems, `${where}: body is not JSON`] };
      }
      const validate = validator(pointer);
      if (!validate(body)) {
        for (const e of validate.errors ?? [])
          problems.push(`${where}: ${e.instancePath || "(body)"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
      }
      return { operationId: route?.operationId ?? null, problems };
    },
  };
}

export type ResponseChecker = ReturnType<typeof responseChecker>;
