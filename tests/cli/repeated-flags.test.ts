// A single-value flag given twice is refused, naming both values (issue 27.9); flags whose help says
// "repeatable" collect every value; booleans may repeat. The real program's flags, through buildProgram.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Command } from 'commander';
import { rejectRepeatedFlags } from '../../cli/flags.js';
import { buildProgram } from '../../cli/program.js';

function program(): { cmd: Command; seen: Record<string, unknown> } {
  const seen: Record<string, unknown> = {};
  const cmd = new Command('p').exitOverride();
  cmd
    .command('go')
    .option('--model <m>', 'one model')
    .option('--tag <t>', 'a tag (repeatable)', (v: string, acc: string[]) => [...acc, v], [])
    .option('--json', 'JSON')
    .action((opts: Record<string, unknown>) => {
      Object.assign(seen, opts);
    });
  rejectRepeatedFlags(cmd);
  return { cmd, seen };
}

test('a single-value flag given twice is refused; repeatable and boolean flags are not', async () => {
  const a = program();
  await assert.rejects(a.cmd.parseAsync(['go', '--model', 'openai:x', '--model=openai:y'], { from: 'user' }), /--model given twice \(openai:x, openai:y\): give it once/);
  const b = program();
  await b.cmd.parseAsync(['go', '--model', 'openai:x', '--tag', 'a', '--tag', 'b', '--json', '--json'], { from: 'user' });
  assert.deepEqual(b.seen, { model: 'openai:x', tag: ['a', 'b'], json: true });
});

test('the real program: --model twice is refused, --role-model and --pause-after repeat', async () => {
  const args = ['reproduce', 'x.json', '--model', 'openai:x', '--model', 'openai:y'];
  await assert.rejects((await buildProgram(args)).parseAsync(args, { from: 'user' }), /--model given twice \(openai:x, openai:y\): give it once/);
  const reproduce = (await buildProgram(['reproduce'])).commands.find((c) => c.name() === 'reproduce')!;
  for (const flag of ['--role-model', '--pause-after']) {
    assert.match(reproduce.options.find((o) => o.long === flag)!.description, /repeatable/, `${flag} must stay repeatable`);
  }
});
