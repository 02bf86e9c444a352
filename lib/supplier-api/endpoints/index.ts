// Every handler file of the supplier API. A file exports the handler of each
// table entry (lib/protocol/endpoints.ts) it serves as `<key>Endpoint`; a new
// file adds its line here. Two files exporting one name do not compile.
export * from "./after-sales";
export * from "./catalog";
export * from "./catalog-webhook";
export * from "./orders";
export * from "./ping";
export * from "./statement";
