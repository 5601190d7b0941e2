/**
 * What other job folders may use of bulk: the redis-cli argument splitter of command files
 * (the console splits a typed line with it, so quoting reads the same everywhere).
 */
export { Row } from './sources/row';
export { Scratch } from './sources/scratch';
export { splitArgs } from './sources/splitArgs';
export { columnOf } from './sources/utf8';
