/** Connection phase: the HandshakeV10 greeting and the client's HandshakeResponse41. */
import { randomBytes } from 'node:crypto';
import { VERSION } from '../engine/server-vars.js';
import { AUTH_PLUGIN, Capability, CHARSET_UTF8, SERVER_CAPABILITIES, Status } from './constants.js';
import type { PacketWriter } from './packet-writer.js';
import { PayloadReader, ProtocolError } from './payload-reader.js';

/** Length of the mysql_native_password challenge. */
export const SCRAMBLE_BYTES = 20;

/** A challenge of printable, non-NUL bytes (some clients treat it as a C string). */
export function newScramble(): Buffer {
  const b = randomBytes(SCRAMBLE_BYTES);
  for (let i = 0; i < b.length; i++) b[i] = 0x21 + (b[i]! % 94);
  return b;
}

/** The greeting; `offerSsl` adds CLIENT_SSL when the server has a certificate. */
export function writeGreeting(w: PacketWriter, connectionId: number, scramble: Buffer, offerSsl = false): void {
  const caps = offerSsl ? SERVER_CAPABILITIES | Capability.SSL : SERVER_CAPABILITIES;
  w.begin().u8(10).nulText(VERSION).u32(connectionId);
  w.bytes(scramble.subarray(0, 8)).u8(0);
  w.u16(caps & 0xffff).u8(CHARSET_UTF8).u16(Status.AUTOCOMMIT).u16(caps >>> 16);
  w.u8(SCRAMBLE_BYTES + 1).bytes(Buffer.alloc(10));
  w.bytes(scramble.subarray(8)).u8(0);
  w.nulText(AUTH_PLUGIN).end();
}

/** An AuthSwitchRequest to mysql_native_password, for clients that answered with another plugin. */
export function writeAuthSwitch(w: PacketWriter, scramble: Buffer): void {
  w.begin().u8(0xfe).nulText(AUTH_PLUGIN).bytes(scramble).u8(0).end();
}

export interface HandshakeResponse {
  capabilities: number;
  maxPacket: number;
  user: string;
  database?: string;
  plugin?: string;
  /** The client asks for TLS first (a 32-byte SSLRequest); its real response follows over TLS. */
  sslRequest: boolean;
}

/** Parses HandshakeResponse41; any user and password are accepted, as Manticore does by default. */
export function parseHandshakeResponse(payload: Buffer): HandshakeResponse {
  const r = new PayloadReader(payload);
  const capabilities = r.u32();
  if (!(capabilities & Capability.PROTOCOL_41)) throw new ProtocolError('client does not speak protocol 4.1');
  const maxPacket = r.u32();
  r.u8(); // charset: results are UTF-8 whatever the client asks
  r.bytes(23);
  const base = { capabilities, maxPacket, user: '', sslRequest: false };
  if (r.remaining === 0) return { ...base, sslRequest: (capabilities & Capability.SSL) !== 0 };
  const user = r.nulText();
  if (capabilities & Capability.PLUGIN_AUTH_LENENC_CLIENT_DATA) r.lenencBytes();
  else if (capabilities & Capability.SECURE_CONNECTION) r.bytes(r.u8());
  else r.nulText();
  const database = capabilities & Capability.CONNECT_WITH_DB && r.remaining > 0 ? r.nulText() : undefined;
  const plugin = capabilities & Capability.PLUGIN_AUTH && r.remaining > 0 ? r.nulText() : undefined;
  return { ...base, user, database, plugin };
}
