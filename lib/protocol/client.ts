// THE DOWNSTREAM CLIENT of the supplier interface (issue 11.4): what a
// downstream shop copies or imports. Two layers:
//  - signedHeaders / signedFetch / supplierClient: signed requests, raw
//    Responses (our benchmarks, tests and lib/upstream use these);
//  - createSupplierClient (./typed-client): typed results parsed with the same
//    zod schemas the OpenAPI document is generated from, createOrder with safe
//    retries, waitForOrder polling; verifyCallback for Profile U callbacks.
// No database, no Next imports: lib/protocol only. This file is the entry
// point; the layers live in ./signed-fetch and ./typed-client.

export { signedFetch, signedHeaders, supplierClient, type SignedRequestInit, type SupplierCredentials } from "./signed-fetch";
export {
  createSupplierClient,
  SupplierApiError,
  SupplierProtocolError,
  type SupplierClient,
  type SupplierClientOptions,
} from "./typed-client";
export { verifyCallback, type VerifiedCallback, type CallbackHeaders } from "./verify-callback";
