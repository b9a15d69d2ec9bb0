// Pictures and files in a chat (issue 18): Ada (English) attaches a photo with a caption and a PDF
// from the composer's picker; Ben (Spanish) sees the picture (decoded by his browser from the
// members-only route), the caption in Spanish and the document to download; the picture opens in a
// viewer, the PDF in the browser's own (issue 37: it could only be downloaded). Screenshots at 375
// and 1280 px go to test-results/chat-attachments/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { chatWithReaders, signedIn, uiStrings } from '../chat';
import { bearer, createActivatedUser, screenshots } from '../fixtures';

const here = path.dirname(fileURLToPath(import.meta.url));
const shots = path.join(here, '..', 'test-results', 'chat-attachments');
const en = uiStrings('en');
const es = uiStrings('es');

/** A real one-page PDF (a browser's viewer shows it): objects, their offsets and a trailer. */
function onePagePdf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets = objects.map((body, index) => {
    const at = out.length;
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

test('a photo and a document sent by one member reach the other', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const ada = await createActivatedUser(request, 'Ada Lovelace');
  const ben = await createActivatedUser(request, 'Ben Ortega');
  const { chat, asReaders } = await chatWithReaders(request, ada, [{ user: ben, language: 'es' }]);
  const asBen = asReaders[0]!;

  const adaPage = await signedIn(browser, ada, 'en-US');
  const benPage = await signedIn(browser, ben, 'es-ES');
  await benPage.goto(`/chat/${chat.id}`);
  await adaPage.goto(`/chat/${chat.id}`);

  // A striped photo (so a real picture must be decoded) and a PDF, chosen in the picker.
  const photo = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: { r: 30, g: 110, b: 190 } } })
    .composite([{ input: await sharp({ create: { width: 1600, height: 300, channels: 3, background: { r: 240, g: 200, b: 60 } } }).png().toBuffer(), top: 700, left: 0 }])
    .jpeg()
    .toBuffer();
  const pdf = onePagePdf('Day 1: Lisbon');
  const [chooser] = await Promise.all([adaPage.waitForEvent('filechooser'), adaPage.getByRole('button', { name: en.chats.attach }).click()]);
  await chooser.setFiles([
    { name: 'beach.jpg', mimeType: 'image/jpeg', buffer: photo },
    { name: 'Itinerary.pdf', mimeType: 'application/pdf', buffer: pdf },
  ]);
  const composer = adaPage.getByRole('textbox', { name: en.chats.messageLabel });
  await composer.fill('The house is big.');
  await expect(adaPage.locator('form.composer').getByText('Itinerary.pdf')).toBeVisible();
  // The picture keeps the name Ada gave it, and she is told it goes as WebP (issue 37: renamed silently).
  const chip = adaPage.locator('.upload-chip').filter({ hasText: 'beach.jpg' });
  await expect(chip.locator(`[title="${en.chats.attachmentConverted}"]`)).toContainText('WebP', { timeout: 15_000 });
  await screenshots(adaPage, shots, 'composer-en');
  // Sent once both uploads are ready.
  await expect(adaPage.locator('.send-button')).toBeEnabled({ timeout: 15_000 });
  await composer.press('Enter');

  // Ben: the picture (really decoded), the caption in Spanish, the document.
  const received = benPage.getByRole('region', { name: es.chats.messages }).locator('li.message').filter({ has: benPage.locator('.attachments') });
  const thumb = received.locator('.attachment-thumb img');
  await expect(thumb).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  await expect(thumb).toHaveAttribute('alt', 'beach.jpg');
  await expect(received).toContainText('casa', { timeout: 20_000 });
  await expect(received.locator('.attachment-file-name')).toHaveText('Itinerary.pdf');
  await screenshots(benPage, shots, 'received-es');
  await received.locator('.attachment-thumb').click();
  const viewer = benPage.getByRole('dialog', { name: 'beach.jpg' });
  await expect(viewer.locator('img')).toBeVisible();
  await expect(viewer).toContainText(es.chats.attachmentConverted);
  // Saved as what it is now: beach.webp.
  await expect(viewer.locator('a[download]')).toHaveAttribute('download', 'beach.webp');
  await expect.poll(() => viewer.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1600);
  await screenshots(benPage, shots, 'viewer-es');
  await benPage.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // The PDF opens in a new tab, in the browser's viewer (not a download).
  const file = received.locator('.attachment-file');
  await expect(file.getByRole('link', { name: es.chats.attachmentDownloadName.replace('{{name}}', 'Itinerary.pdf') })).toBeVisible();
  const [tab] = await Promise.all([benPage.context().waitForEvent('page'), file.getByRole('link', { name: es.chats.attachmentOpenName.replace('{{name}}', 'Itinerary.pdf') }).click()]);
  await tab.waitForURL(/\/attachments\/\d+\/file$/);
  await expect.poll(() => tab.evaluate(() => document.contentType)).toBe('application/pdf');
  await tab.setViewportSize({ width: 1280, height: 720 });
  await tab.waitForTimeout(1000);
  await tab.screenshot({ path: path.join(shots, 'pdf-1280.png') });
  await tab.close();

  // The files are the members': someone else's session gets 404.
  const stranger = await createActivatedUser(request, 'Zed');
  const url = (await (await request.get(`/api/chat/${chat.id}/messages/?limit=1`, { headers: asBen })).json()).results[0].attachments[0].url as string;
  expect((await request.get(url, { headers: await bearer(request, stranger) })).status()).toBe(404);
  expect((await request.get(url, { headers: asBen })).status()).toBe(200);
  for (const page of [adaPage, benPage]) await page.context().close();
});
