import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Textarea, TextInput } from '@mantine/core';
import { ContactMessageSchema } from '@scrub/contract';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { errorMessage } from '../../api/error-message';
import { useSendContact } from '../../data/service';
import { StaticPage } from './static-page';

/**
 * The contract's rules for `POST /contact` (the seed's messages), plus seed 1's captcha: a sum to
 * type, checked here; the service limits messages per client address on its side.
 */
const ContactSchema = ContactMessageSchema.extend({
  captcha: z
    .string()
    .trim()
    .refine((answer) => Number(answer) === 7, 'Recaptcha is required'),
});
type ContactForm = z.input<typeof ContactSchema>;

export default function ContactPage() {
  const form = useForm<ContactForm>({
    resolver: zodResolver(ContactSchema),
    defaultValues: { name: '', email: '', subject: '', message: '', captcha: '' },
  });
  const send = useSendContact({ onSuccess: () => form.reset() });
  const { errors } = form.formState;
  return (
    <StaticPage title="Contact us">
      <form onSubmit={form.handleSubmit(({ captcha: _, ...message }) => send.mutate(message))} noValidate>
        <TextInput label="Name" withAsterisk error={errors.name?.message} {...form.register('name')} />
        <TextInput
          mt="sm"
          label="Email"
          type="email"
          withAsterisk
          error={errors.email?.message}
          {...form.register('email')}
        />
        <TextInput
          mt="sm"
          label="Subject"
          withAsterisk
          error={errors.subject?.message}
          {...form.register('subject')}
        />
        <Textarea
          mt="sm"
          label="Message"
          minRows={4}
          autosize
          withAsterisk
          error={errors.message?.message}
          {...form.register('message')}
        />
        <TextInput
          mt="sm"
          label="Are you human? What is 3 + 4?"
          inputMode="numeric"
          withAsterisk
          error={errors.captcha?.message}
          {...form.register('captcha')}
          maw={240}
        />
        <Button type="submit" mt="md" loading={send.isPending}>
          Send
        </Button>
      </form>
      {send.isSuccess && (
        <Alert
          color="teal"
          role="status"
          mt="md"
          title="Message sent successfully"
          data-testid="contact-sent"
        >
          {send.data.message}
        </Alert>
      )}
      {send.isError && (
        <Alert color="red" role="alert" mt="md">
          {errorMessage(send.error, 'Failed to send your message. Please try again.')}
        </Alert>
      )}
    </StaticPage>
  );
}
