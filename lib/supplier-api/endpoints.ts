import { ENDPOINT_LIST, type EndpointKey } from "../protocol/endpoints";
import type { Endpoint } from "./define-endpoint";
import * as files from "./endpoints/index";

/**
 * The handler of every entry of the endpoint table (lib/protocol/endpoints.ts),
 * by its key: the router (./router.ts) serves exactly these. Each handler file
 * under ./endpoints/ exports the handler of entry `createOrder` as
 * `createOrderEndpoint`, so adding an endpoint is its entry and its handler
 * (issue 23). The types refuse a table entry without a handler and a handler
 * without an entry; the router refuses a handler made from another entry (its
 * name differs).
 */
type HandlerExports = { [K in EndpointKey as `${K}Endpoint`]: Endpoint };
const exported: HandlerExports = files;
type Unlisted = Exclude<keyof typeof files, keyof HandlerExports>;
// A handler whose name matches no entry does not compile: this type is then the name.
export type _NoHandlerWithoutEntry = [Unlisted] extends [never] ? true : Unlisted;
const _check: _NoHandlerWithoutEntry = true;

export const HANDLERS = Object.fromEntries(ENDPOINT_LIST.map((e) => [e.key, exported[`${e.key}Endpoint`]])) as Record<
  EndpointKey,
  Endpoint
>;
