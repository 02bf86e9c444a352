// Header names of the supplier interface (section 5, D6). HTTP header names
// are case-insensitive; these are the canonical spellings we send.
export const HEADER_API_KEY = "Svc-Api-Key";
export const HEADER_TIMESTAMP = "Svc-Timestamp";
export const HEADER_SIGNATURE = "Svc-Signature";
/** Every response carries one (D1); the same id appears in the server's log line. */
export const HEADER_REQUEST_ID = "X-Request-Id";

/** Accepted distance between the client's timestamp and server time, seconds (section 5 rule 1). */
export const TIMESTAMP_WINDOW_SECONDS = 60;
/** D8: how long a processed signed request is remembered (covers the whole ±60 s window). */
export const REPLAY_WINDOW_SECONDS = 120;
/** D30: 1 MiB. */
export const MAX_BODY_BYTES = 1_048_576;

export const PROTOCOL_VERSION = "1.0";
export const PROVIDER_TYPE = "SVC_KEY";
