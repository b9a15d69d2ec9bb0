// The tab's title: the page's heading, then the product.
import { describe, expect, it } from 'vitest';
import { titleFor } from '../src/components/document-title';

describe('the tab title', () => {
  it('names the page by its heading, then Parla', () => {
    expect(titleFor('Sign in')).toBe('Sign in · Parla');
    expect(titleFor('  Weekend\n plans ')).toBe('Weekend plans · Parla');
  });
  it('is Parla alone before a page has a heading, or when the heading is the product itself', () => {
    expect(titleFor(undefined)).toBe('Parla');
    expect(titleFor('')).toBe('Parla');
    expect(titleFor('Parla')).toBe('Parla');
  });
});
