// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// An exchange's withdrawal contract, in miniature: the ETH reaches `to` through an internal call, so the transaction's
/// own `to` is this contract, and only the payee's balance (or a trace) shows the payment.
contract Forwarder {
    error ForwardFailed(address to);

    function forward(address payable to) external payable {
        (bool ok, ) = to.call{value: msg.value}('');
        if (!ok) revert ForwardFailed(to);
    }
}
