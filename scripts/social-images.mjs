#!/usr/bin/env node
// `node scripts/social-images.mjs`: draws the social image (Open Graph, Twitter) of each section of the site from
// src/data/social-images.json into static/img/social/<section>.png, 1200x630, with Chromium (/usr/bin/chromium,
// or CHROMIUM_PATH) through playwright-core. Run it after changing a section's text; commit the PNGs.
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const OUT = join(ROOT, 'static', 'img', 'social');
const WIDTH = 1200;
const HEIGHT = 630;

const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** The card of one section, as a page of exactly WIDTH x HEIGHT. */
export function cardHtml({ label, title, subtitle }, logoSvg) {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  html, body { margin: 0; width: ${WIDTH}px; height: ${HEIGHT}px; }
  body { box-sizing: border-box; padding: 72px 80px; display: flex; flex-direction: column; justify-content: space-between;
    font-family: 'DejaVu Sans', 'Liberation Sans', sans-serif; color: #f8fafc;
    background: linear-gradient(115deg, #063d2e 0 62%, #0a6a50 62% 100%); }
  /* Flat colours with hard stops: the PNG stays small. */
  header { display: flex; align-items: center; gap: 24px; font-size: 44px; font-weight: 700; letter-spacing: -0.5px; }
  header svg { width: 88px; height: 88px; }
  h1 { margin: 0 0 24px; font-size: 72px; line-height: 1.1; letter-spacing: -1.5px; max-width: 1000px; }
  p { margin: 0; font-size: 34px; line-height: 1.35; color: #d1fae5; max-width: 980px; }
  footer { display: flex; justify-content: space-between; align-items: center; font-size: 28px; color: #a7f3d0; }
  footer span:last-child { width: 18px; height: 18px; border-radius: 50%; background: #fbbf24; }
</style></head><body>
  <header>${logoSvg}<span>Pikku</span></header>
  <main><h1>${escape(title)}</h1><p>${escape(subtitle)}</p></main>
  <footer><span>${escape(label)}</span><span></span></footer>
</body></html>`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { sections } = JSON.parse(readFileSync(join(ROOT, 'src', 'data', 'social-images.json'), 'utf8'));
  const logo = readFileSync(join(ROOT, 'static', 'img', 'logo.svg'), 'utf8');
  mkdirSync(OUT, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 1 });
    for (const section of sections) {
      await page.setContent(cardHtml(section, logo), { waitUntil: 'load' });
      const file = join(OUT, `${section.section}.png`);
      await page.screenshot({ path: file, clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } });
      console.log(`wrote ${file.slice(ROOT.length + 1)}`);
    }
  } finally {
    await browser.close();
  }
}
