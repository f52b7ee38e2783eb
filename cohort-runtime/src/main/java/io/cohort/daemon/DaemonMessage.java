package io.cohort.daemon;

/**
 * A received message that passed every check of {@link MessageAuthenticator#open}.
 *
 * @param type      what it is
 * @param sender    the sender's name as written in the frame (authentic: only key holders can write it)
 * @param timestamp the sender's clock when sent, epoch ms
 * @param body      its fields
 */
public record DaemonMessage(MessageType type, String sender, long timestamp, MessageBody body) {
}
