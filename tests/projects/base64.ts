/** Standard base64 of bytes (an integrity string's encoding); btoa wants a binary string, so it gets one. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
