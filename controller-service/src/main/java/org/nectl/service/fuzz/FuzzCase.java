package org.nectl.service.fuzz;

import org.nectl.transport.sbe.RejectReason;

/**
 * The kinds of datagram {@link PlannerFuzzer} sends, each with the reply the gateway must give:
 * an ack for {@link #VALID} only; for the others a CommandReject, of one exact reason where the
 * protocol determines it, of any reason where the damage is random; no reply at all for
 * {@link #DISALLOWED_SOURCE}.
 */
public enum FuzzCase
{
    /** A correctly signed, fresh, in-range StreamSetpoint: must be acknowledged. */
    VALID(null, true),
    /** Random bytes of random length. */
    RANDOM_BYTES(null, false),
    /** A correctly signed command with 1 to 8 random bits flipped anywhere, trailer included. */
    BIT_FLIP(null, false),
    /** A correctly signed command cut short at a random length. */
    TRUNCATION(null, false),
    /** Longer than the gateway's maximum datagram. */
    OVERSIZED(RejectReason.OVERSIZED, true),
    /** Header schemaId other than 1. */
    WRONG_SCHEMA_ID(RejectReason.WRONG_SCHEMA_ID, true),
    /** Header version 0 or above the gateway's. */
    WRONG_VERSION(RejectReason.WRONG_SCHEMA_VERSION, true),
    /** Header templateId of no planner command. */
    WRONG_TEMPLATE(RejectReason.UNKNOWN_TEMPLATE, true),
    /** Header blockLength other than the command's. */
    WRONG_BLOCK_LENGTH(RejectReason.BLOCK_LENGTH_MISMATCH, true),
    /** Correctly signed, with a NaN or infinity in one joint value. */
    NON_FINITE(RejectReason.NON_FINITE, true),
    /** Correctly signed, with a position or velocity beyond the joint limits. */
    OUT_OF_RANGE(RejectReason.LIMIT_EXCEEDED, true),
    /** Correctly signed, with one joint too many or too few. */
    WRONG_JOINT_COUNT(RejectReason.WRONG_JOINT_COUNT, true),
    /** Correctly signed ModeRequest with an undefined request or controller value. */
    BAD_ENUM(RejectReason.INVALID_FIELD, true),
    /** Correctly signed segment chunk whose index is not below its chunk count. */
    BAD_CHUNK(RejectReason.INVALID_FIELD, true),
    /** Correctly signed setpoint whose joint group header has a wrong block length. */
    BAD_GROUP(RejectReason.MALFORMED, true),
    /** A valid command with an all-zero trailer. */
    UNSIGNED(RejectReason.AUTHENTICATION_FAILED, true),
    /** A valid command with a random trailer. */
    BAD_SIGNATURE(RejectReason.AUTHENTICATION_FAILED, true),
    /** A valid command signed with a key the gateway does not have. */
    WRONG_KEY(RejectReason.AUTHENTICATION_FAILED, true),
    /** A valid command from a planner id without a key, signed with the fuzzer's key. */
    UNKNOWN_PLANNER(RejectReason.AUTHENTICATION_FAILED, true),
    /** A valid, signed command whose timestamp is more than 60 s (the longest window) off. */
    STALE(RejectReason.STALE, true),
    /** The last VALID datagram, byte for byte: REPLAYED, or STALE once it is older than the time window. */
    REPLAY(RejectReason.REPLAYED, true),
    /** A valid, signed command from a source address outside the allow-list: counted, never answered. */
    DISALLOWED_SOURCE(RejectReason.DISALLOWED_SOURCE, true);

    private final RejectReason expected;
    private final boolean exact;

    FuzzCase(final RejectReason expected, final boolean exact)
    {
        this.expected = expected;
        this.exact = exact;
    }

    /** @return the reject reason the gateway must give, or null for VALID and the random cases. */
    public RejectReason expected()
    {
        return expected;
    }

    /** @return true if the outcome is determined: an ack for VALID, {@link #expected()} for the others. */
    public boolean exact()
    {
        return exact;
    }

    /** @return true if {@code reason} is a correct rejection of a datagram of this case. */
    public boolean allows(final RejectReason reason)
    {
        if (this == VALID)
        {
            return false;
        }
        return !exact || reason == expected || this == REPLAY && reason == RejectReason.STALE;
    }
}
