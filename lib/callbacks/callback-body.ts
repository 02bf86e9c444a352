import { decryptText, encryptText } from "../crypto/secret-box";

// A callback body carries the fulfillment, i.e. plain card keys, so it is kept
// only as AES-256-GCM ciphertext (base64) in Callback.body, like every other
// secret at rest. The sender opens it and sends the same bytes on every attempt.

const PREFIX = "sealed:v1:";

export function sealCallbackBody(json: string): string {
  return PREFIX + Buffer.from(encryptText(json)).toString("base64");
}

export function openCallbackBody(stored: string): string {
  if (!stored.startsWith(PREFIX)) return stored;
  return decryptText(Buffer.from(stored.slice(PREFIX.length), "base64"));
}
