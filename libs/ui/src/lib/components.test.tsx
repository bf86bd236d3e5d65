import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Avatar } from './Avatar';
import { Button } from './Button';
import { Card } from './Card';
import { Input } from './Input';

describe('Button', () => {
  it('is a plain button by default, in the 44 px size', () => {
    render(<Button>Save</Button>);
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toHaveAttribute('type', 'button');
    expect(button).toHaveClass('mate-btn--md');
  });

  it('uses the 48 px class for large and is busy and disabled while loading', () => {
    render(
      <Button size="lg" loading type="submit">
        Sign In
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Sign In' });
    expect(button).toHaveClass('mate-btn--lg');
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
  });
});

describe('Input', () => {
  it('labels the field and ties hint and error to it', () => {
    render(<Input label="Password" type="password" hint="Minimum 8 characters" error="Too short" />);
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Minimum 8 characters Too short');
  });

  it('is valid without an error', () => {
    render(<Input label="Email" type="email" />);
    expect(screen.getByRole('textbox', { name: 'Email' })).not.toHaveAttribute('aria-invalid');
  });
});

describe('Card', () => {
  it('is a region named by its title', () => {
    render(<Card title="Coming Soon">list</Card>);
    expect(screen.getByRole('region', { name: 'Coming Soon' })).toHaveTextContent('list');
  });
});

describe('Avatar', () => {
  it('shows the first letter of the name without a picture', () => {
    render(<Avatar name="ada" />);
    expect(screen.getByRole('img', { name: 'ada' })).toHaveTextContent('A');
  });

  it('offers the other files of a picture for the longest side it is drawn at in its box', () => {
    render(<Avatar name="Bea" src="/p/thumb.webp" srcSet="/p/thumb.webp 200w, /p/medium.webp 600w" size="xl" />);
    const picture = screen.getByRole('img', { name: 'Bea' });
    expect(picture).toHaveAttribute('src', '/p/thumb.webp');
    expect(picture).toHaveAttribute('srcset', '/p/thumb.webp 200w, /p/medium.webp 600w');
    // 80 px round box; a 4:5 portrait covering it is drawn 100 px tall.
    expect(picture).toHaveAttribute('sizes', '100px');
    expect(picture).toHaveAttribute('decoding', 'async');
  });

  it('defers a picture below the fold when told, and has no sizes without a srcSet', () => {
    render(<Avatar name="Cy" src="/c/thumb.webp" size="md" loading="lazy" />);
    const picture = screen.getByRole('img', { name: 'Cy' });
    expect(picture).toHaveAttribute('loading', 'lazy');
    expect(picture).not.toHaveAttribute('srcset');
    expect(picture).not.toHaveAttribute('sizes');
  });
});
