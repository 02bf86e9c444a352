// THE DOWNSTREAM CLIENT of the supplier interface (issue 11.4): what a
// downstream shop copies or imports. Two layers:
//  - signedHeaders / signedFetch / supplierClient: signed requests, raw
//    Responses (our benchmarks, tests and lib/upstream use these);
//  - createSupplierClient (./typed-client): one method per endpoint of the
//    table, typed results parsed with the same zod schemas the OpenAPI
//    document is generated from, createOrder with safe retries; waitForOrder
//    and syncProducts (./client-workflows); verifyCallback for Profile U callbacks.
// No database, no Next imports: lib/protocol only. This file is the entry
// point; the layers live in ./signed-fetch, ./typed-client and ./client-workflows.

export { signedFetch, signedHeaders, supplierClient, type SignedRequestInit, type SupplierCredentials } from "./signed-fetch";
export {
  createSupplierClient,
  SupplierApiError,
  SupplierProtocolError,
  type EndpointMethods,
  type SupplierClient,
  type SupplierClientOptions,
} from "./typed-client";
export { syncProducts, waitForOrder } from "./client-workflows";
export { verifyCallback, type VerifiedCallback, type CallbackHeaders } from "./verify-callback";
