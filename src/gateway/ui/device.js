// The browser's device identity, as OpenClaw's clients have one: an Ed25519 key pair made with
// WebCrypto, the private key non-extractable and kept in IndexedDB (a page script can use it to
// sign but never read it), the device id the SHA-256 of the raw public key in hex, and the
// connect proof OpenClaw's Control UI signs (payload v2:
// v2|deviceId|clientId|clientMode|role|scopes|signedAt|token|nonce). WebCrypto exists only in a
// secure context (https, or http on localhost), which available() tells. Once paired, the device
// token the gateway issues is kept here too (savedToken), for logging in without the secret.

const DB = "clawexec-control";
const STORE = "identity";

function b64url(bytes) {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function hex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function request(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

async function store() {
  const open = indexedDB.open(DB, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(STORE);
  return request(open);
}

/** True when this page can hold a device key (secure context with WebCrypto and IndexedDB). */
export function available() {
  return Boolean(window.isSecureContext && crypto?.subtle && window.indexedDB);
}

/** This browser's identity { id, publicKey, privateKey }, made on first use. */
export async function identity() {
  const db = await store();
  const saved = await request(db.transaction(STORE).objectStore(STORE).get("device"));
  if (saved?.privateKey && saved?.id && saved?.publicKey) return saved;
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
  const raw = await crypto.subtle.exportKey("raw", pair.publicKey);
  const made = { id: hex(await crypto.subtle.digest("SHA-256", raw)), publicKey: b64url(raw), privateKey: pair.privateKey };
  const tx = db.transaction(STORE, "readwrite");
  tx.objectStore(STORE).put(made, "device");
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  return made;
}

async function put(key, value) {
  const db = await store();
  const tx = db.transaction(STORE, "readwrite");
  if (value === undefined) tx.objectStore(STORE).delete(key);
  else tx.objectStore(STORE).put(value, key);
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
}

/**
 * The device token the gateway issued this paired browser (hello-ok auth.deviceToken), kept
 * next to the key so a later visit logs in without the shared secret. Alone it is no
 * credential: every connect with it must also be signed by the non-extractable key.
 */
export async function savedToken() {
  const db = await store();
  const t = await request(db.transaction(STORE).objectStore(STORE).get("deviceToken"));
  return typeof t === "string" && t ? t : null;
}
export const saveToken = (token) => put("deviceToken", token);
export const forgetToken = () => put("deviceToken", undefined);

/** The connect frame's `device` for `params` (the ConnectParams) and the server's challenge. */
export async function proof(dev, params, challenge) {
  const token = params.auth?.token ?? params.auth?.deviceToken ?? "";
  const payload = ["v2", dev.id, params.client.id, params.client.mode, params.role, params.scopes.join(","), String(challenge.ts), token, challenge.nonce].join("|");
  const signature = await crypto.subtle.sign({ name: "Ed25519" }, dev.privateKey, new TextEncoder().encode(payload));
  return { id: dev.id, publicKey: dev.publicKey, signature: b64url(signature), signedAt: challenge.ts, nonce: challenge.nonce };
}
