// The stack's settings file (.data/stack/.env): every value .env.example asks for, generated the way its comment
// says (random hex of the size it names, Ed25519 key pairs as DER in base64), written once and kept — PostgreSQL
// and Keycloak keep the first passwords and client secret they were started with, so a value is never replaced.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** One setting of .env.example: its name, the value it shows (empty when required) and how to make one. */
export interface Setting {
  name: string;
  value: string;
  /** Random bytes in hex, from the `openssl rand -hex N` line above it. */
  hexBytes?: number;
  /** Below the file's "Optional" line: its value is the default, empty included. */
  optional: boolean;
}

const HEX = /openssl rand -hex (\d+)/;
const ASSIGNMENT = /^([A-Z][A-Z0-9_]*)=(.*)$/;
const OPTIONAL_SECTION = /^# -+ Optional/;

/** The settings .env.example names, in its order, each with the size its nearest comment gives. */
export function settingsOf(example: string): Setting[] {
  const settings: Setting[] = [];
  let hexBytes: number | undefined;
  let optional = false;
  for (const line of example.split('\n')) {
    if (OPTIONAL_SECTION.test(line)) optional = true;
    const hex = HEX.exec(line);
    if (hex) hexBytes = Number(hex[1]);
    const assignment = ASSIGNMENT.exec(line);
    if (!assignment) continue;
    const [, name = '', value = ''] = assignment;
    // A size holds until the next one: "openssl rand -hex 24   (each)" names one for a run of settings.
    settings.push({ name, value, optional, ...(hexBytes === undefined ? {} : { hexBytes }) });
  }
  return settings;
}

/** The settings an env file holds, by name. */
export function parseEnv(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const assignment = ASSIGNMENT.exec(line);
    if (assignment) values.set(assignment[1] ?? '', assignment[2] ?? '');
  }
  return values;
}

function keyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
  };
}

/**
 * The values of every setting: `overrides` applied to optional ones, those already in `current` kept, and every
 * empty required one generated. Key pairs are made together, so a private key and its public key always match.
 */
export function completeSettings(
  settings: readonly Setting[],
  current: ReadonlyMap<string, string>,
  overrides: Readonly<Record<string, string>> = {},
): Map<string, string> {
  const values = new Map<string, string>();
  for (const setting of settings) {
    // An optional setting (one .env.example gives a value) follows what this run asks for; a secret never
    // changes once written.
    const override = overrides[setting.name];
    if (setting.optional && override !== undefined) {
      values.set(setting.name, override);
      continue;
    }
    const kept = current.get(setting.name);
    if (kept !== undefined && (kept !== '' || setting.optional)) {
      values.set(setting.name, kept);
      continue;
    }
    if (setting.optional || setting.value !== '') {
      values.set(setting.name, setting.value);
      continue;
    }
    if (setting.name.endsWith('_PRIVATE_KEY')) {
      const pair = keyPair();
      values.set(setting.name, pair.privateKey);
      values.set(setting.name.replace(/_PRIVATE_KEY$/, '_PUBLIC_KEY'), pair.publicKey);
      continue;
    }
    if (setting.name.endsWith('_PUBLIC_KEY') && values.has(setting.name)) continue;
    if (setting.hexBytes === undefined)
      throw new Error(`.env.example says nothing of how to make ${setting.name}`);
    values.set(setting.name, randomBytes(setting.hexBytes).toString('hex'));
  }
  return values;
}

/** Writes the stack's .env (mode 600) with every setting, keeping the values an earlier run wrote. */
export function writeStackEnv(options: {
  example: string;
  file: string;
  overrides?: Readonly<Record<string, string>>;
}): Map<string, string> {
  const current = existsSync(options.file) ? parseEnv(readFileSync(options.file, 'utf8')) : new Map();
  const values = completeSettings(
    settingsOf(readFileSync(options.example, 'utf8')),
    current,
    options.overrides,
  );
  mkdirSync(dirname(options.file), { recursive: true });
  const lines = [...values].map(([name, value]) => `${name}=${value}`);
  writeFileSync(
    options.file,
    `# Written by npm run stack: the stack's secrets and settings (see .env.example). Kept between runs.\n${lines.join('\n')}\n`,
    { mode: 0o600 },
  );
  return values;
}
