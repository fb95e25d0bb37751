/** Regenerates src/internal/pageAssets.generated.ts from page/. */
import { writeFile } from 'node:fs/promises';
import { buildPageAssets, generatedFile } from './pageAssets.mjs';

const text = await buildPageAssets();
await writeFile(generatedFile, text);
console.log(`wrote ${generatedFile} (${Buffer.byteLength(text)} bytes)`);
