import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFERENCE_SCRIPT_FILE } from '../../catalogue/index.ts';

/**
 * The API reference page: Redoc renders the served OpenAPI document. Both URLs are relative to the page
 * (`/v2/docs`), so the page works under whatever origin and base path serves it, and loads nothing from
 * another origin (its content security policy, in the contract, forbids it anyway). The empty icon keeps the
 * browser from asking for `/favicon.ico`, which the API does not serve.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Community platform API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<redoc spec-url="openapi.json" path-in-middle-panel="true"></redoc>
<script src="docs/${basename(REFERENCE_SCRIPT_FILE)}"></script>
</body>
</html>
`;

export async function apiReferencePage(): Promise<string> {
  return PAGE;
}

/**
 * The one address the published bundle loads by itself: the small Redocly logo under the side menu, from
 * Redocly's CDN. It is served as an empty inline image instead, so the page asks nothing of another origin (the
 * browser test fails if a new version of the bundle loads anything else).
 */
const CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22/%3E';

let script: string | undefined;

/**
 * Redoc's standalone bundle, read once per process. In the cloud the CDK bundling has copied it beside the
 * function's code (the catalogue line's `bundleFiles`); locally it is read from the installed package.
 */
export async function apiReferenceScript(): Promise<string> {
  script ??= readFileSync(scriptPath(), 'utf8').replaceAll(CDN_LOGO, EMPTY_IMAGE);
  return script;
}

function scriptPath(): string {
  const beside = fileURLToPath(new URL(`./${basename(REFERENCE_SCRIPT_FILE)}`, import.meta.url));
  if (existsSync(beside)) return beside;
  return createRequire(import.meta.url).resolve(REFERENCE_SCRIPT_FILE.replace(/^node_modules\//, ''));
}
