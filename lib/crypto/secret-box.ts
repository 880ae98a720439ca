import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { getConfig } from '@/lib/config';

const VERSION = 'v1';
const KEY_FILE = 'secret.key';

const globalForKey = globalThis as unknown as { __quarrySecretKey?: Buffer };

/**
 * The key that encrypts secrets at rest: QUARRY_SECRET_KEY when set (any string; its SHA-256 is
 * used), otherwise 32 random bytes generated once into the data directory (file mode 0600).
 * Several processes sharing one PostgreSQL database must share QUARRY_SECRET_KEY.
 */
export function secretKey(): Buffer {
  if (globalForKey.__quarrySecretKey) return globalForKey.__quarrySecretKey;
  const config = getConfig();
  let key: Buffer;
  if (config.secretKey) {
    key = createHash('sha256').update(config.secretKey).digest();
  } else {
    key = Buffer.from(dataDirSecret(KEY_FILE), 'base64');
    if (key.length !== 32) throw new Error(`${path.join(config.dataDir, KEY_FILE)} does not hold a 32-byte base64 key`);
  }
  globalForKey.__quarrySecretKey = key;
  return key;
}

/**
 * A secret kept in a file of the data directory: 32 random bytes in base64, written once (mode
 * 0600, never overwritten, so concurrent first starts agree) and read back on every start.
 */
export function dataDirSecret(fileName: string): string {
  const { dataDir } = getConfig();
  const file = path.join(dataDir, fileName);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

export function resetSecretKey(): void {
  globalForKey.__quarrySecretKey = undefined;
}

/** AES-256-GCM: "v1.<iv>.<tag>.<ciphertext>" in base64url. */
export function encryptSecret(plaintext: string, key = secretKey()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

export function decryptSecret(sealed: string, key = secretKey()): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('Unrecognised encrypted value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
