/** The Hono environment of the HTTP app: Node's request objects when served by node:http, none in tests. */
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';

export type HttpEnv = { Bindings: Partial<HttpBindings> };

export type HttpContext = Context<HttpEnv>;
