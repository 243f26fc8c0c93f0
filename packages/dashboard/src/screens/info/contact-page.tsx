import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Text } from '@mantine/core';
import { ContactMessageSchema } from '@scrub/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../api/error-message';
import { EmailField, FormTextarea, FormTextInput } from '../../common/form-fields';
import { useSendContact } from '../../data/service';
import { StaticPage } from './static-page';

/**
 * The contract's rules for `POST /contact` (the seed's messages). The human check is the service's:
 * a proof-of-work challenge the page solves when Send is pressed (nothing to type), checked by the
 * service, which also limits messages per client address.
 */
const ContactSchema = ContactMessageSchema.omit({ altcha: true });
type ContactForm = z.input<typeof ContactSchema>;

export default function ContactPage() {
  const form = useForm<ContactForm>({
    resolver: zodResolver(ContactSchema),
    defaultValues: { name: '', email: '', subject: '', message: '' },
  });
  const send = useSendContact({ onSuccess: () => form.reset() });
  return (
    <StaticPage title="Contact us">
      <form onSubmit={form.handleSubmit((message) => send.mutate(message))} noValidate>
        <FormTextInput form={form} name="name" label="Name" withAsterisk />
        <EmailField form={form} name="email" mt="sm" />
        <FormTextInput form={form} name="subject" mt="sm" label="Subject" withAsterisk />
        <FormTextarea form={form} name="message" mt="sm" label="Message" minRows={4} autosize withAsterisk />
        <Text size="xs" c="dimmed" mt="sm" data-testid="human-check-note">
          Sending runs a short human check in your browser: nothing to type.
        </Text>
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
