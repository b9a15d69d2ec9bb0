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
});
