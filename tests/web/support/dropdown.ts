// Working a PrimeReact Dropdown from a test: what it shows, its options, choosing one.
// (happy-dom cannot measure, so PrimeReact's overlay panel stays display:none: its options count as
// hidden for the queries; and each Dropdown also has a hidden <select> whose options are left out.)
import { fireEvent, waitFor, within } from '@testing-library/react';

function dropdownOf(input: HTMLElement): HTMLElement {
  const root = input.closest('.p-dropdown');
  if (!root) throw new Error('not inside a PrimeReact Dropdown');
  return root as HTMLElement;
}

/** The text the dropdown shows: the chosen option's label, or its placeholder. */
export function dropdownText(input: HTMLElement): string {
  return dropdownOf(input).querySelector('.p-dropdown-label')?.textContent ?? '';
}

const panels = () => [...document.querySelectorAll<HTMLElement>('.p-dropdown-panel')];

/**
 * Opens the dropdown and returns its panel. Clicks until it opens: a Dropdown ignores clicks while
 * its options load.
 */
export async function openDropdown(input: HTMLElement): Promise<HTMLElement> {
  const before = new Set(panels());
  let panel: HTMLElement | undefined;
  await waitFor(() => {
    panel = panels().find((candidate) => !before.has(candidate));
    if (panel) return;
    fireEvent.click(dropdownOf(input));
    panel = panels().find((candidate) => !before.has(candidate));
    if (!panel) throw new Error('the dropdown did not open');
  });
  return panel as HTMLElement;
}

/** Closes an open panel (Escape) and waits for it to go. */
async function closeDropdown(input: HTMLElement, panel: HTMLElement): Promise<void> {
  await waitFor(() => {
    if (!panel.isConnected) return;
    fireEvent.keyDown(dropdownOf(input).querySelector('input') as HTMLElement, { key: 'Escape', code: 'Escape' });
    throw new Error('the dropdown is still open');
  });
}

/** The labels of the options of the dropdown (opens and closes it). */
export async function optionLabels(input: HTMLElement): Promise<string[]> {
  const panel = await openDropdown(input);
  const labels = within(panel)
    .queryAllByRole('option', { hidden: true })
    .map((option) => option.getAttribute('aria-label') ?? option.textContent ?? '');
  await closeDropdown(input, panel);
  return labels;
}

/** Opens the dropdown, clicks the option with this name and waits for the panel to close. */
export async function chooseOption(input: HTMLElement, name: string): Promise<void> {
  const panel = await openDropdown(input);
  fireEvent.click(await within(panel).findByRole('option', { name, hidden: true }));
  await waitFor(() => {
    if (panel.isConnected) throw new Error('the dropdown is still open');
  });
}
