import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Toasts } from '../src/components/toasts';
import { notify } from '../src/lib/toast';

describe('toasts loaded on demand', () => {
  it('renders nothing until a toast is asked for, then shows the queued messages in order', async () => {
    const { container } = render(<Toasts />);
    expect(container.innerHTML).toBe('');
    notify.error('First problem.');
    notify.success('Then good news.');
    expect(await screen.findByText('First problem.')).toBeTruthy();
    expect(await screen.findByText('Then good news.')).toBeTruthy();
    notify.info('Straight through now.');
    expect(await screen.findByText('Straight through now.')).toBeTruthy();
  });

  it('shows the same message once while it is up (four failed requests of one page, one "Not found.")', async () => {
    render(<Toasts />);
    for (let index = 0; index < 5; index++) notify.error('Not found.');
    expect(await screen.findByText('Not found.')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.getAllByText('Not found.')).toHaveLength(1);
  });
});
