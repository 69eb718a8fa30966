// `npm run lint` guards the web app's layers (eslint.config.js), its hooks and TypeScript's
// recommended rules, and its import cycles (.dependency-cruiser.cjs). These tests feed each a
// break and check it is reported, so a config change that quietly stops a rule from applying
// fails here.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const webDir = path.dirname(fileURLToPath(import.meta.url));
const eslint = new ESLint({ cwd: webDir });

/** The rules ESLint reports for `code` as if it were the file at `file` (relative to web/). */
async function broken(file, code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(webDir, file) });
  return result.messages.map((message) => message.ruleId ?? message.message);
}

/** The layer rules among them (the probes import names they do not use). */
const brokenLayers = async (file, code) => (await broken(file, code)).filter((rule) => rule.startsWith('boundaries/'));

describe('the layer rules', () => {
  it.each([
    ['a feature importing another feature’s file', 'src/features/chat/Probe.ts', "import { GiveOfferBar } from '../wallet/GiveOfferBar';"],
    ['a feature importing another’s index without composing it', 'src/features/chat/Probe.ts', "import { offersInChat } from '../wallet';"],
    ['a type import across features', 'src/features/item/Probe.ts', "import type { ChatKinds } from '../chat/ChatProvider';"],
    ['a composing feature importing past the index', 'src/features/profile/Probe.ts', "import { WalletList } from '../wallet/WalletList';"],
    ['shared importing a feature', 'src/shared/Probe.ts', "import { ChatProvider } from '../features/chat';"],
    ['the app importing past a feature’s index', 'src/app/Probe.ts', "import { ChatsPage } from '../features/chat/ChatsPage';"],
    ['a lazy route importing past the index', 'src/app/Probe.ts', "export const page = () => import('../features/wallet/RechargePage');"],
    ['production code importing the test helpers', 'src/features/chat/Probe.ts', "import { renderChatWindow } from '../../test/chat';"],
  ])('reports %s', async (_, file, code) => {
    expect(await brokenLayers(file, code)).toEqual(['boundaries/dependencies']);
  }, 60_000);

  it.each([
    ['a feature importing shared code', 'src/features/chat/Probe.ts', "import { api } from '../../shared/api';"],
    ['a page composing another feature through its index', 'src/features/profile/Probe.ts', "import { WalletList } from '../wallet';"],
    ['the app importing a feature’s index', 'src/app/Probe.ts', "import { ChatsPage } from '../features/chat';"],
    ['a test using the test helpers', 'src/features/chat/Probe.test.ts', "import { renderChatWindow } from '../../test/chat';"],
  ])('allows %s', async (_, file, code) => {
    expect(await brokenLayers(file, code)).toEqual([]);
  }, 60_000);

  it('reports a file outside every layer', async () => {
    expect(await broken('src/lib/Probe.ts', 'export const probe = 1;')).toEqual(['boundaries/no-unknown-files']);
  }, 60_000);
});

describe('the correctness rules', () => {
  it.each([
    ['a hook called under a condition', 'react-hooks/rules-of-hooks', "import { useState } from 'react';\nexport function useProbe(on: boolean) {\n  if (on) useState(0);\n}\n"],
    [
      'an effect missing a dependency',
      'react-hooks/exhaustive-deps',
      "import { useEffect } from 'react';\nexport function useProbe(id: string) {\n  useEffect(() => {\n    document.title = id;\n  }, []);\n}\n",
    ],
    ['a ref written during render', 'react-hooks/refs', "import { useRef } from 'react';\nexport function useProbe(value: number) {\n  const latest = useRef(value);\n  latest.current = value;\n  return latest;\n}\n"],
    ['an explicit any', '@typescript-eslint/no-explicit-any', 'export const probe = (value: any) => value;\n'],
    ['an unused variable', '@typescript-eslint/no-unused-vars', 'export function probe() {\n  const unused = 1;\n}\n'],
  ])('reports %s', async (_, rule, code) => {
    expect(await broken('src/features/chat/Probe.ts', code)).toEqual([rule]);
  }, 60_000);

  it('allows a key left out by a rest sibling', async () => {
    expect(await broken('src/features/chat/Probe.ts', 'export function probe(all: Record<string, number>) {\n  const { a: _a, ...rest } = all;\n  return rest;\n}\n')).toEqual([]);
  }, 60_000);
});

describe('the cycle rule', () => {
  it('reports a cycle that runs through a type-only import', async () => {
    const require = createRequire(import.meta.url);
    const config = require('./.dependency-cruiser.cjs');
    // The app's tsconfig covers src/ only; these files resolve without it.
    const { tsConfig: _, ...options } = config.options;
    const dir = mkdtempSync(path.join(tmpdir(), 'cycle-'));
    try {
      writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b';\nexport const a = (b: B) => b;\n");
      writeFileSync(path.join(dir, 'b.ts'), "import { a } from './a';\nexport type B = typeof a;\n");
      const result = await cruise([dir], { ...options, ruleSet: { forbidden: config.forbidden }, validate: true });
      expect(result.output.summary.violations.map((violation) => violation.rule.name)).toEqual(['no-circular']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
