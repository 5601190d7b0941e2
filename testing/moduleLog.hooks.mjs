// Loaded with `node --import` (or NODE_OPTIONS) when CB_MODULE_LOG names a file: every module
// the process resolves through the ES module loader is appended to it as "<argv[1]>\t<url>",
// so a test can see which files a real run of the bin loaded (tsx, a .ts source, ioredis…).
// The resolve hook runs on Node's loader thread; appending synchronously there keeps the
// record complete even when the process ends with process.exit().
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

/** @type {{ file: string, argv1: string }} */
let log;

/** @param {{ file: string, argv1: string }} data */
export async function initialize(data) {
  log = data;
}

/** @type {import('node:module').ResolveHook} */
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(log.file, `${log.argv1}\t${r.url}\n`);
  return r;
}

const file = process.env.CB_MODULE_LOG;
if (isMainThread && file) register(import.meta.url, { data: { file, argv1: process.argv[1] ?? '' } });
