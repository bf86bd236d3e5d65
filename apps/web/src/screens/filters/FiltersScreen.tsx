import { displayMessage } from '@mate/api-client';
import type { FilterPreferencesDto } from '@mate/contracts';
import { Alert, Button, Card, Chip, Icon, Slider, Spinner, PageHeader } from '@mate/ui';
import { useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { FILTER_LISTS, FILTER_SLIDERS, toggleValue, type FilterList } from './filter-lists';
import { useFilterPreferences, useSaveFilterPreferences } from './useFilterPreferences';

export const FILTERS_SAVED = 'Filter preferences saved successfully!';
export const FILTERS_SAVE_FAILED = 'Failed to save preferences';

/**
 * Spec 001 §2: Cancel and a successful save go back one step. Opened directly (no earlier page
 * of the app in this tab) there is no step to go back to, so the dashboard stands in.
 */
function useGoBack() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    if (location.key === 'default') void navigate('/dashboard', { replace: true });
    else void navigate(-1);
  };
}

function OptionList({
  list,
  selected,
  onToggle,
}: {
  list: FilterList;
  selected: string[];
  onToggle: (value: string) => void;
}) {
  const titleId = useId();
  return (
    <div role="group" aria-labelledby={titleId} className="filter-list">
      <div className="chip-group__head">
        <h3 id={titleId} className="filter-list__title">
          {list.title}
        </h3>
        <span className="chip-group__count">
          {selected.length === 0 ? 'All' : `${selected.length} selected`}
        </span>
      </div>
      <div className="chip-group">
        {list.options.map((option) => (
          <Chip
            key={option.value}
            selected={selected.includes(option.value)}
            onClick={() => onToggle(option.value)}
          >
            {option.label}
          </Chip>
        ))}
      </div>
    </div>
  );
}

function FiltersForm({ initial }: { initial: FilterPreferencesDto }) {
  const [filters, setFilters] = useState<FilterPreferencesDto>(initial);
  const save = useSaveFilterPreferences();
  const goBack = useGoBack();

  const set = <K extends keyof FilterPreferencesDto>(key: K, value: FilterPreferencesDto[K]) =>
    setFilters((current) => ({ ...current, [key]: value }));

  const onSave = () => {
    // The whole object goes; a height nobody touched stays null (no height filter).
    save.mutate(filters, {
      onSuccess: () => {
        window.alert(FILTERS_SAVED);
        goBack();
      },
      onError: (error) => window.alert(displayMessage(error, FILTERS_SAVE_FAILED)),
    });
  };

  return (
    <>
      <Card tone="strong" title="Basics" icon={<Icon name="sliders" size={20} />}>
        <div className="filters__sliders">
          {FILTER_SLIDERS.map((slider) => (
            <Slider
              key={slider.key}
              label={slider.label}
              min={slider.min}
              max={slider.max}
              value={filters[slider.key] ?? slider.unset}
              onValueChange={(value) => set(slider.key, value)}
              format={slider.unit ? (value) => `${value} ${slider.unit}` : String}
            />
          ))}
        </div>
      </Card>

      <Card
        tone="strong"
        title="Who you'd like to see"
        description="Tap to add or remove. An empty list means all."
        icon={<Icon name="filter" size={20} />}
      >
        <div className="filters__lists">
          {FILTER_LISTS.map((list) => (
            <OptionList
              key={list.key}
              list={list}
              selected={filters[list.key]}
              onToggle={(value) => set(list.key, toggleValue(filters[list.key], value))}
            />
          ))}
        </div>
      </Card>

      <div className="filters__actions">
        <Button variant="secondary" size="lg" onClick={goBack} disabled={save.isPending}>
          Cancel
        </Button>
        <Button size="lg" onClick={onSave} loading={save.isPending}>
          Save Filters
        </Button>
      </div>
    </>
  );
}

/** `/settings/filters` (spec 001 §2): fine-tune who appears in Discover. */
export function FiltersScreen() {
  const filters = useFilterPreferences();
  useDocumentTitle('Filter Preferences');
  return (
    <div className="screen screen--medium">
      <PageHeader title="Filter Preferences" subtitle="Fine-tune who appears in Discover." />
      {filters.isPending ? (
        <Card>
          <div className="screen--center">
            <Spinner label="Loading filters..." showLabel />
          </div>
        </Card>
      ) : filters.isError ? (
        <Alert tone="error" title="Failed to load filters">
          {filters.error.message}
          <div className="alert-actions">
            <Button variant="secondary" onClick={() => void filters.refetch()}>
              Try Again
            </Button>
          </div>
        </Alert>
      ) : (
        <FiltersForm initial={filters.data} />
      )}
    </div>
  );
}
