import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import toast from 'react-hot-toast';
import { COMMUNITY_LIMITS, POST_CATEGORIES, type PostCategory } from '@beacon/contracts';
import type { ApiError } from '@/app/api';
import { acceptedImage, IMAGE_ACCEPT, useImageUpload } from '@/common/image-upload';
import { useFormFields, type FieldSetter } from '@/common/useFormFields';
import { WizardSteps } from '@/common/WizardSteps';
import { LocationPicker } from '../incidents/LocationPicker';
import { markPostSeen, useCreatePostMutation } from './community.api';
import { communityText, postCategoryName } from './labels';
import '../incidents/incidents.css';
import { EMPTY_POST, imageError, POST_STEPS, validatePostStep, type PostErrors, type PostValues } from './post-form';
import { X } from 'lucide-react';

/** The two-step create-post dialog: details (with an optional image), then location. */
export function CreatePostModal({ onClose }: { onClose: () => void }) {
  const id = useId();
  const intl = useIntl();
  const stepNames = Object.values(POST_STEPS).map((m) => intl.formatMessage(m));
  const [step, setStep] = useState(0);
  const { values, errors, setErrors, set } = useFormFields<PostValues, PostErrors>(EMPTY_POST);
  const [submitting, setSubmitting] = useState(false);
  const uploadImage = useImageUpload('community-post-photos', (message) => {
    setErrors({ image: message });
    setStep(0);
  });
  const [createPost] = useCreatePostMutation();
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    dialog.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && !submitting && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose, submitting, step]);

  const next = () => {
    const found = validatePostStep(0, values);
    setErrors(found);
    if (!Object.keys(found).length) setStep(1);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (step === 0) return next();
    const found = { ...validatePostStep(0, values), ...validatePostStep(1, values) };
    setErrors(found);
    if (Object.keys(found).length) {
      if (found.title || found.category || found.description || found.image) setStep(0);
      return;
    }
    setSubmitting(true);
    try {
      const imagePath = await uploadImage(values.image);
      const post = await createPost({
        title: values.title.trim(),
        category: values.category as PostCategory,
        description: values.description.trim(),
        lat: values.location!.lat,
        lng: values.location!.lng,
        locationName: values.locationName.trim() || null,
        imagePath,
      }).unwrap();
      markPostSeen(post.id); // the list refetches it; the live event must not add it twice
      toast.success(communityText('posted'));
      onClose();
    } catch (err) {
      const apiError = err as ApiError;
      toast.error(
        apiError.statusCode === 401
          ? communityText('signInToPost')
          : apiError.code === 'rate_limited'
            ? apiError.message // it says when to try again
            : communityText('postFailed'),
      );
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="modal-backdrop" onClick={(e) => e.target === e.currentTarget && !submitting && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} ref={dialog}>
        <div className="row-between">
          <h2 id={`${id}-title`}>
            <FormattedMessage id="community.create.title" defaultMessage="Create New Post" />
          </h2>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-label={intl.formatMessage({ id: 'community.create.close', defaultMessage: 'Close' })}
            onClick={onClose}
            disabled={submitting}
          >
            <X aria-hidden="true" size={20} />
          </button>
        </div>
        <WizardSteps steps={stepNames} current={step} />
        <form onSubmit={submit} noValidate>
          <h3>
            <FormattedMessage
              id="community.create.stepHeading"
              defaultMessage="Step {step} of {count}: {name}"
              values={{ step: step + 1, count: stepNames.length, name: stepNames[step] }}
            />
          </h3>
          {step === 0 ? (
            <DetailsFields values={values} errors={errors} set={set} />
          ) : (
            <LocationPicker
              value={values.location}
              onChange={(p) => set('location', p)}
              locationName={values.locationName}
              onLocationNameChange={(n) => set('locationName', n)}
              error={errors.location}
              mapLabel={intl.formatMessage({ id: 'community.create.mapLabel', defaultMessage: 'Post location map' })}
            />
          )}
          <div className="wizard-nav">
            {step === 0 ? (
              <button type="button" className="btn btn-outline" onClick={onClose}>
                <FormattedMessage id="community.create.cancel" defaultMessage="Cancel" />
              </button>
            ) : (
              <button type="button" className="btn btn-outline" onClick={() => setStep(0)} disabled={submitting}>
                <FormattedMessage id="community.create.back" defaultMessage="Back" />
              </button>
            )}
            {step === 0 ? (
              <button type="button" className="btn btn-primary" onClick={next}>
                <FormattedMessage id="community.create.next" defaultMessage="Next" />
              </button>
            ) : (
              <button type="submit" className="btn btn-primary" disabled={submitting}>
                {submitting ? (
                  <FormattedMessage id="community.create.creating" defaultMessage="Creating..." />
                ) : (
                  <FormattedMessage id="community.create.submit" defaultMessage="Create Post" />
                )}
              </button>
            )}
          </div>
        </form>
      </div>
    </div>
  );
}

function DetailsFields({ values, errors, set }: { values: PostValues; errors: PostErrors; set: FieldSetter<PostValues> }) {
  const id = useId();
  const intl = useIntl();
  const field = (name: keyof PostErrors) => ({
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });
  const error = (name: keyof PostErrors) =>
    errors[name] && (
      <p className="field-error" id={`${id}-${name}-error`}>
        {errors[name]}
      </p>
    );
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-title`}>
          <FormattedMessage id="community.create.titleLabel" defaultMessage="Title" />
        </label>
        <input
          id={`${id}-title`}
          value={values.title}
          placeholder={intl.formatMessage({ id: 'community.create.titlePlaceholder', defaultMessage: 'A short summary' })}
          onChange={(e) => set('title', e.target.value)}
          {...field('title')}
        />
        {error('title')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-category`}>
          <FormattedMessage id="community.create.category" defaultMessage="Category" />
        </label>
        <select id={`${id}-category`} value={values.category} onChange={(e) => set('category', e.target.value as PostCategory | '')} {...field('category')}>
          <option value="">{intl.formatMessage({ id: 'community.create.selectCategory', defaultMessage: 'Select a category' })}</option>
          {POST_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {postCategoryName(c, intl)}
            </option>
          ))}
        </select>
        {error('category')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>
          <FormattedMessage id="community.create.description" defaultMessage="Description" />
        </label>
        <textarea
          id={`${id}-description`}
          rows={5}
          value={values.description}
          placeholder={intl.formatMessage({ id: 'community.create.descriptionPlaceholder', defaultMessage: 'Share the details your neighbours need' })}
          onChange={(e) => set('description', e.target.value)}
          {...field('description')}
        />
        <span className="muted small">
          <FormattedMessage
            id="community.create.characterCount"
            defaultMessage="{count}/{max}"
            values={{ count: values.description.length, max: COMMUNITY_LIMITS.descriptionMax }}
          />
        </span>
        {error('description')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-image`}>
          <FormattedMessage id="community.create.image" defaultMessage="Image (optional)" />
        </label>
        <input
          id={`${id}-image`}
          type="file"
          accept={IMAGE_ACCEPT}
          {...field('image')}
          onChange={(e) => void acceptedImage(e.target, imageError).then((image) => set('image', image))}
        />
        {values.image && (
          <span className="row small">
            {values.image.name}
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => set('image', null)}>
              <FormattedMessage id="community.create.removeImage" defaultMessage="Remove image" />
            </button>
          </span>
        )}
        {error('image')}
      </div>
    </>
  );
}
