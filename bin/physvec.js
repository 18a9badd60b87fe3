#!/usr/bin/env node
// The `physvec` command: runs the TypeScript CLI through tsx (no build step).
import { register } from 'tsx/esm/api';
register();
await import('../cli/main.ts');
