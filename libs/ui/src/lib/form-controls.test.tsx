import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Chip } from './Chip';
import { ProgressBar } from './ProgressBar';
import { Select } from './Select';
import { Slider } from './Slider';
import { Textarea } from './Textarea';

describe('Select', () => {
  it("is labelled, starts at its placeholder and ties the hint to it", () => {
    const onChange = vi.fn();
    render(
      <Select
        label="Gender"
        placeholder="Select..."
        hint="Shown on your profile"
        options={[
          { value: 'male', label: 'Male' },
          { value: 'female', label: 'Female' },
        ]}
        value=""
        onChange={onChange}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Gender' });
    expect(select).toHaveValue('');
    expect(screen.getByRole('option', { name: 'Select...' })).toHaveValue('');
    expect(select).toHaveAccessibleDescription('Shown on your profile');
    fireEvent.change(select, { target: { value: 'female' } });
    expect(onChange).toHaveBeenCalled();
  });

  it('marks the field invalid with an error', () => {
    render(<Select label="Looking For" options={[]} error="Required" />);
    expect(screen.getByRole('combobox', { name: 'Looking For' })).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('Textarea', () => {
  it('is labelled and describes itself with its hint', () => {
    render(<Textarea label="Bio" hint="0/500 characters" liveHint />);
    const bio = screen.getByRole('textbox', { name: 'Bio' });
    expect(bio).toHaveAccessibleDescription('0/500 characters');
    expect(screen.getByText('0/500 characters')).toHaveAttribute('aria-live', 'polite');
  });
});

describe('Slider', () => {
  it('is a labelled range with a readable value and reports numbers', () => {
    const onValueChange = vi.fn();
    render(<Slider label="Maximum distance" min={1} max={200} value={50} onValueChange={onValueChange} format={(v) => `${v} km`} />);
    const slider = screen.getByRole('slider', { name: 'Maximum distance' });
    expect(slider).toHaveAttribute('min', '1');
    expect(slider).toHaveAttribute('max', '200');
    expect(slider).toHaveAttribute('aria-valuetext', '50 km');
    expect(screen.getByText('50 km')).toBeInTheDocument();
    fireEvent.change(slider, { target: { value: '120' } });
    expect(onValueChange).toHaveBeenCalledWith(120);
  });
});

describe('Chip', () => {
  it('is a toggle button that says whether it is pressed', () => {
    const { rerender } = render(<Chip selected={false}>Travel</Chip>);
    expect(screen.getByRole('button', { name: 'Travel' })).toHaveAttribute('aria-pressed', 'false');
    rerender(<Chip selected>Travel</Chip>);
    expect(screen.getByRole('button', { name: 'Travel', pressed: true })).toHaveClass('mate-chip--selected');
  });

  it('is a plain action button without `selected`', () => {
    render(<Chip>Coffee</Chip>);
    expect(screen.getByRole('button', { name: 'Coffee' })).not.toHaveAttribute('aria-pressed');
  });
});

describe('ProgressBar', () => {
  it('is a progressbar named by its label, clamped to 0–100', () => {
    render(<ProgressBar label="Profile 140% complete" value={140} />);
    expect(screen.getByRole('progressbar', { name: 'Profile 140% complete' })).toHaveAttribute('aria-valuenow', '100');
  });
});
